import type { FlowEntry } from "../../engine/scripted-model.ts";
import type { Mutant } from "./mutant.ts";
import { plantedMutant } from "./planted-mutant.ts";
import { derivedConfig } from "../../config.ts";
import type { FinalReport, TurnReport } from "../checks/turn-report.ts";
import type { RunOptions } from "../run/run-options.ts";
import { runScenario } from "../run/run-scenario.ts";
import { runUser } from "../run/run-user.ts";
import type { LoadedScenario } from "../scenario/scenario.ts";
import { startScenarioTarget, type ScenarioTarget } from "../target/scenario-target.ts";

/** One scenario played once, mutated or not: what a strength run compares. */
export interface StrengthPlay {
  /** The scenario's name (with its case), as the suite names it. */
  scenario: string;
  outcome: "passed" | "failed";
  turns: TurnReport[];
  final?: FinalReport;
  /** Each flow's model mode, as the target ran it. */
  models: Readonly<Record<string, string>>;
}

export interface PlayOptions {
  flows: readonly FlowEntry[];
  env: Readonly<Record<string, string | undefined>>;
  scratchDir: string;
  turnTimeoutMs?: number;
  mutant?: Mutant;
}

/** A simulated scenario's user, played as the suite plays it: the flow's scripted user, or the cassette's. */
function userOptions(loaded: LoadedScenario, target: ScenarioTarget, options: PlayOptions): RunOptions {
  if (!loaded.scenario.user) return {};
  const flowName = loaded.scenario.flowName;
  const entry = options.flows.find((each) => each.flow.name === flowName);
  return runUser(target.capabilities?.config ?? derivedConfig(options.env), entry, undefined, flowName, target);
}

/**
 * Plays `loaded` on a target started for it alone, with the mutant applied when given: only an
 * app in this process takes one (`startScenarioTarget` refuses any other with `strength_refused`).
 */
export async function playForStrength(loaded: LoadedScenario, options: PlayOptions): Promise<StrengthPlay> {
  const target = await startScenarioTarget(loaded, {
    flows: options.flows,
    scratchDir: options.scratchDir,
    env: options.env,
    ...(options.mutant ? { mutant: plantedMutant(options.mutant) } : {}),
  });
  const play: StrengthPlay = {
    scenario: loaded.name,
    outcome: "failed",
    turns: [],
    models: target.description.models ?? {},
  };
  try {
    const runOptions: RunOptions = {
      ...userOptions(loaded, target, options),
      ...(options.turnTimeoutMs === undefined ? {} : { turnTimeoutMs: options.turnTimeoutMs }),
    };
    for await (const event of runScenario(loaded, target, runOptions)) {
      if (event.type === "turn:end") play.turns.push(event.report);
      if (event.type === "final") play.final = event.report;
      if (event.type === "scenario:end") play.outcome = event.outcome;
    }
  } finally {
    await target.close();
  }
  return play;
}
