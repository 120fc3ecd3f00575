import assert from "node:assert/strict";
import type { Config, Environment } from "../../config.ts";
import type { FlowEntry } from "../../engine/scripted-model.ts";
import type { FinalReport, TurnReport } from "../checks/turn-report.ts";
import { conversationSlot } from "../limits/conversation-slot.ts";
import { RunArbiter } from "../limits/run-arbiter.ts";
import { runLimits, type RunLimits } from "../limits/run-limits.ts";
import type { LoadedScenario } from "../scenario/scenario.ts";
import { startScenarioTarget, type ScenarioTarget } from "../target/scenario-target.ts";
import type { GraphsAsked } from "../target/langgraph/langgraph-step-names.ts";
import type { TargetConfig } from "../target/target-config.ts";
import type { JudgeSetup } from "./judge-for-run.ts";
import { clientOptions, type RunOptions } from "./run-options.ts";
import type { ScenarioEvent } from "./scenario-event.ts";
import { ScenarioRun } from "./scenario-run.ts";

export interface ScenarioPlayOptions {
  /** The flows the app serves (with their scripts). */
  flows: readonly FlowEntry[];
  /** What the run is played with on the target once it is up: its options and the judge set up for it. */
  runOptions(target: ScenarioTarget): { run: RunOptions; judging: JudgeSetup | undefined };
  /** Told every event of the run: transcripts, results, coverage. */
  listeners: readonly ((event: ScenarioEvent) => void)[];
  /** Told, once, why the conversation was never played: the results record it. */
  notStarted(why: string): void;
  /**
   * The scenario's configuration, read once for it: its target starts with it. An Error: it could
   * not be read, and the play fails to start with that error. Unset: the target reads it.
   */
  config?: Config | Error;
  /** The project's flowcheck.config.json, read once for the run (undefined: none); not given: the target reads it. */
  targets?: TargetConfig | undefined;
  /**
   * The run's limits the conversation asks for its slots and provider requests (`runLimits`),
   * counted in the run's summary or not; unset: an arbiter of the play's own.
   */
  limits?: RunLimits;
  /** The run's environment, which its target reads its settings from; unset: the process's, read then. */
  environment?: Environment;
  /** The LangGraph graphs the run has asked for their nodes already. */
  graphsAsked?: GraphsAsked;
}

/** Why a conversation's turns cannot be played, as the first test of its suite reports it. */
export type PlayStart =
  | { state: "ready"; sessionsUnavailable: string | undefined; storeError: unknown }
  | { state: "unstarted"; why: string }
  | { state: "failed"; error: unknown }
  | { state: "unserved"; problems: string[] };

/**
 * One play of a scenario, from booting its target to closing it: the target is up, serves the
 * flow with every step the scenario names and its store answers, then the run's turns are played
 * as they are asked for (`ScenarioRun.turn`), or all at once in the background within one of the
 * run's conversation slots, ahead of whoever asks. Nothing here knows about node:test.
 */
export class ScenarioPlay {
  readonly loaded: LoadedScenario;
  readonly #options: ScenarioPlayOptions;
  #target: ScenarioTarget | undefined;
  #run: ScenarioRun | undefined;
  #judging: JudgeSetup | undefined;
  #ready: Promise<PlayStart> | undefined;
  #background: Promise<void> | undefined;
  #closed: Promise<void> | undefined;
  #ownLimits: RunLimits | undefined;

  constructor(loaded: LoadedScenario, options: ScenarioPlayOptions) {
    this.loaded = loaded;
    this.#options = options;
  }

  /** The run, once `ready()` said it is ready. */
  get run(): ScenarioRun {
    return this.#run!;
  }

  get judging(): JudgeSetup | undefined {
    return this.#judging;
  }

  /** Boots the target and checks that it serves the flow and that its store answers, once. */
  ready(): Promise<PlayStart> {
    return (this.#ready ??= this.#prepare());
  }

  /**
   * Plays the whole conversation now, once one of the run's `concurrency` slots is free, and gives
   * the slot back once its target is closed; whoever asks for a turn then gets what it played.
   */
  playInBackground(config: Config, concurrency: number): void {
    const slot = conversationSlot(this.#limits(), config, concurrency, this.loaded);
    this.#ready = slot.then((held) => (held.skip ? this.#unstarted(held.skip) : this.#prepare()));
    // Whoever awaits it still gets its rejection.
    this.#ready.catch(() => undefined);
    this.#background = (async () => {
      const held = await slot;
      try {
        if ((await this.#ready!).state === "ready") await this.run.complete();
      } finally {
        await this.close();
        held.release();
      }
    })().catch(() => undefined);
  }

  /** The whole conversation, start to close, now. */
  async playWhole(): Promise<void> {
    try {
      if ((await this.ready()).state === "ready") await this.run.complete();
    } finally {
      await this.close();
    }
  }

  /** Waits for the background play, if any, and closes the target. */
  async end(): Promise<void> {
    await this.#background;
    await this.close();
  }

  close(): Promise<void> {
    return (this.#closed ??= (async () => {
      this.#run?.end();
      await this.#target?.close();
    })());
  }

  /** Turn `index` after those before it, on a ready play. */
  turn(index: number): Promise<TurnReport> {
    return this.run.turn(index);
  }

  finish(): Promise<FinalReport> {
    return this.run.complete();
  }

  /** The run's limits, or those of an arbiter of the play's own, made once. */
  #limits(): RunLimits {
    return (this.#ownLimits ??= this.#options.limits ?? runLimits(new RunArbiter(), false));
  }

  #unstarted(why: string): PlayStart {
    this.#options.notStarted(why);
    return { state: "unstarted", why };
  }

  async #prepare(): Promise<PlayStart> {
    let target: ScenarioTarget;
    try {
      const { config, flows } = this.#options;
      if (config instanceof Error) throw config;
      target = this.#target = await startScenarioTarget(this.loaded, {
        flows,
        ...(config ? { config } : {}),
        ...("targets" in this.#options ? { targets: this.#options.targets } : {}),
        limits: this.#limits(),
        ...(this.#options.environment ? { env: this.#options.environment } : {}),
        ...(this.#options.graphsAsked ? { graphsAsked: this.#options.graphsAsked } : {}),
      });
    } catch (error) {
      this.#options.notStarted(`the target did not start: ${(error as Error).message}`);
      return { state: "failed", error };
    }
    const prepared = this.#options.runOptions(target);
    this.#judging = prepared.judging;
    const run = new ScenarioRun(this.loaded, target, prepared.run);
    for (const listener of this.#options.listeners) run.on(listener);
    this.#run = run;
    run.start();
    const problems = await this.#servingProblems(target, prepared.run);
    if (problems.length) {
      this.#options.notStarted(`the target does not serve the flow as the file expects: ${problems.join("; ")}`);
      return { state: "unserved", problems };
    }
    const { reader, unavailable } = target.sessions;
    if (!reader) return { state: "ready", sessionsUnavailable: unavailable, storeError: undefined };
    // A read of an id no server makes proves the store answers before any turn relies on it.
    try {
      assert.equal(await reader.fetchAll("00000000-0000-0000-0000-000000000000"), undefined);
      return { state: "ready", sessionsUnavailable: undefined, storeError: undefined };
    } catch (error) {
      return { state: "ready", sessionsUnavailable: undefined, storeError: error };
    }
  }

  async #servingProblems(target: ScenarioTarget, options: RunOptions): Promise<string[]> {
    try {
      return await target.servingProblems(this.loaded.scenario, clientOptions(options));
    } catch (error) {
      return [(error as Error).message];
    }
  }
}
