import assert from "node:assert/strict";
import type { Config, Environment } from "../../config.ts";
import type { FlowEntry } from "../../engine/scripted-model.ts";
import type { FinalReport, SimulationReport, TurnReport } from "../checks/turn-report.ts";
import { conversationSlot } from "../limits/conversation-slot.ts";
import { RunArbiter } from "../limits/run-arbiter.ts";
import { runLimits, type RunLimits } from "../limits/run-limits.ts";
import type { LoadedScenario } from "../scenario/scenario.ts";
import { startScenarioTarget, type ScenarioTarget } from "../target/scenario-target.ts";
import type { GraphsAsked } from "../target/langgraph/langgraph-step-names.ts";
import type { StartedApps } from "../target/start/started-apps.ts";
import type { ServedModel } from "../target/served-model.ts";
import type { TargetConfig } from "../target/target-config.ts";
import type { JudgeSetup } from "./judge-for-run.ts";
import { clientOptions, type RunOptions } from "./run-options.ts";
import { PlayReach } from "./play-reach.ts";
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
  /** The apps the run has started for its targets; unset: a target with a `start` starts its own. */
  startedApps?: StartedApps<ServedModel>;
  /** How far the play goes (shared by the repeats of one conversation); unset: every step. */
  reach?: PlayReach;
}

/** Why a conversation's turns cannot be played, as the first test of its suite reports it. */
export type PlayStart =
  | { state: "ready"; sessionsUnavailable: string | undefined; storeError: unknown }
  | { state: "unstarted"; why: string }
  | { state: "failed"; error: unknown }
  | { state: "unserved"; problems: string[] };

/** What a conversation's slot is asked with: the suite's configuration and how many conversations play at once. */
export interface PlaySlot {
  config: Config;
  concurrency: number;
}

/** A value the play settles later: a step's report, or how its start went. */
class Later<T> {
  readonly promise: Promise<T>;
  settle!: (value: T) => void;
  fail!: (error: unknown) => void;

  constructor() {
    this.promise = new Promise((resolve, reject) => {
      this.settle = resolve;
      this.fail = reject;
    });
    // Whoever awaits it still gets its rejection; nobody may, when its test was filtered out.
    this.promise.catch(() => undefined);
  }
}

/** A step of the play: played and reported, failed with the play's error, or reported undefined once the play stops before it. */
interface PlayStep {
  play(): Promise<void>;
  fail(error: unknown): void;
  skip(): void;
}

function playStep<T>(report: Later<T | undefined>, play: () => Promise<T | undefined>): PlayStep {
  return {
    play: async () => report.settle(await play()),
    fail: (error) => report.fail(error),
    skip: () => report.settle(undefined),
  };
}

/**
 * One play of a scenario as one unit, from booting its target to closing it: the target is up,
 * serves the flow with every step the scenario names and its store answers, then its turns, its
 * simulated user and its final state are played in order, each as far as its `PlayReach` lets it
 * go, and its target is closed. Whoever wants a step's report awaits what the play reports for it.
 * Nothing here knows about node:test.
 */
export class ScenarioPlay {
  readonly loaded: LoadedScenario;
  readonly #options: ScenarioPlayOptions;
  #target: ScenarioTarget | undefined;
  #run: ScenarioRun | undefined;
  #judging: JudgeSetup | undefined;
  #played: Promise<void> | undefined;
  readonly #reach: PlayReach;
  #closed: Promise<void> | undefined;
  #ownLimits: RunLimits | undefined;
  readonly #start = new Later<PlayStart>();
  readonly #turns: Later<TurnReport | undefined>[];
  readonly #simulation = new Later<SimulationReport | undefined>();
  readonly #final = new Later<FinalReport | undefined>();

  constructor(loaded: LoadedScenario, options: ScenarioPlayOptions) {
    this.loaded = loaded;
    this.#options = options;
    this.#reach = options.reach ?? new PlayReach(Number.POSITIVE_INFINITY);
    this.#turns = loaded.scenario.turns.map(() => new Later<TurnReport | undefined>());
  }

  /** The run, once `ready()` said it is ready. */
  get run(): ScenarioRun {
    return this.#run!;
  }

  get judging(): JudgeSetup | undefined {
    return this.#judging;
  }

  /** How the play's start went, once `play()` has booted the target and checked that it serves the flow and that its store answers. */
  ready(): Promise<PlayStart> {
    return this.#start.promise;
  }

  /**
   * Plays the conversation now, as far as its reach lets it go, and closes its target; with a
   * `slot`, once one of the run's slots is free, given back once the target is closed. Resolves
   * once the play is over or waits for a step nobody has asked for yet.
   */
  play(slot?: PlaySlot): Promise<void> {
    const held = slot ? conversationSlot(this.#limits(), slot.config, slot.concurrency, this.loaded) : undefined;
    const start = held
      ? held.then((each) => (each.skip ? this.#unstarted(each.skip) : this.#prepare()))
      : this.#prepare();
    start.then(this.#start.settle, this.#start.fail);
    let idle!: () => void;
    const idled = new Promise<void>((resolve) => (idle = resolve));
    this.#played = (async () => {
      const each = await held;
      try {
        await this.#playSteps(idle);
      } finally {
        await this.close();
        each?.release();
        idle();
      }
    })().catch(() => undefined);
    return idled;
  }

  /** Turn `index`'s report once played; undefined when the play stopped before it. */
  turn(index: number): Promise<TurnReport | undefined> {
    this.#reach.want(index);
    return this.#turns[index]!.promise;
  }

  /** Turn `index`'s report if the play goes that far, without asking it to: a judge's test only reads it. */
  turnIfPlayed(index: number): Promise<TurnReport | undefined> {
    return this.#reach.wants(index) ? this.#turns[index]!.promise : Promise.resolve(undefined);
  }

  /** The simulated user's conversation after the turns (undefined without a user, or after a failed turn). */
  simulation(): Promise<SimulationReport | undefined> {
    this.#reach.want(this.#turns.length);
    return this.#simulation.promise;
  }

  /** The final state's report, after everything before it. */
  final(): Promise<FinalReport | undefined> {
    this.#reach.want(this.#turns.length + 1);
    return this.#final.promise;
  }

  /** Nobody will ask for another step: the play stops where it is, and its target is closed. */
  async end(): Promise<void> {
    this.#reach.stop();
    await this.#played;
    await this.close();
  }

  close(): Promise<void> {
    return (this.#closed ??= (async () => {
      this.#run?.end();
      await this.#target?.close();
    })());
  }

  /** Each step in order while the reach allows it; the steps it never reaches are reported undefined. */
  async #playSteps(idle: () => void): Promise<void> {
    const reach = this.#reach;
    const steps: PlayStep[] = [
      ...this.#turns.map((report, index) => playStep(report, () => this.run.turn(index))),
      playStep(this.#simulation, () => this.run.simulation()),
      playStep(this.#final, () => this.run.complete()),
    ];
    let next = 0;
    try {
      if ((await this.ready()).state !== "ready") return;
      for (; next < steps.length; next++) {
        if (!reach.wants(next)) idle();
        if (!(await reach.until(next))) break;
        await steps[next]!.play();
      }
    } catch (error) {
      for (const step of steps.slice(next)) step.fail(error);
    } finally {
      for (const step of steps.slice(next)) step.skip();
    }
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
        ...(this.#options.startedApps ? { startedApps: this.#options.startedApps } : {}),
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
