import type { FlowEntry } from "../../engine/scripted-model.ts";
import type { ScriptedUser } from "../../engine/scripted-user.ts";
import type { DomainCheck, TurnCheck } from "../checks/domain-check.ts";
import type { Judge } from "../judge/judge.ts";
import type { FlowOutline } from "../scenario/meaning-problems.ts";
import type { CurrentRun } from "../report/current-run.ts";
import type { TargetConfig } from "../target/target-config.ts";

/** What one scenario file's suites are played with: the flow suite's options, its checks for that file combined. */
export interface SuiteOptions {
  /** The flows the app serves (with their scripts); the scenario's flowName must be one of them. */
  flows: readonly FlowEntry[];
  /** Domain checks in code, run on the stored session after the last turn. */
  domain?: DomainCheck;
  /** Domain checks in code, run on the stored head after every answered turn (invariants). */
  eachTurn?: TurnCheck;
  judge?: Judge;
  /**
   * Scripted users, by flow name, for flows that a target of another kind serves (a flow of
   * `flows` has its own in its FlowEntry): they play its simulated scenarios in the scripted mode.
   */
  users?: Readonly<Record<string, ScriptedUser>>;
  /** Where failure transcripts go. Default `test/.tmp`. */
  artifactsDir?: string;
  /** How many times each conversation is played; unset: `FLOW_REPEAT`. */
  repeat?: number;
  /** The project's flowcheck.config.json, read once for the suites (undefined: none); not given: each target reads it. */
  targets?: TargetConfig | undefined;
  /** For a flow that a target of another kind serves, not one of `flows`: the steps it lists, for the loader. */
  outline?: FlowOutline;
  /** The run the suites belong to, looked up once by whoever describes them; unset: the current one (`currentRun`). */
  run?: CurrentRun;
}
