import assert from "node:assert/strict";
import type { TestContext } from "node:test";
import { flowProblems } from "../checks/flow-problems.ts";
import { ChatClient } from "../client/chat-client.ts";
import { noteCoverage } from "../report/flow-coverage.ts";
import { ResultsRecorder } from "../report/results-recorder.ts";
import { TranscriptWriter } from "../report/transcript-writer.ts";
import type { JudgeSetup } from "../run/judge-for-run.ts";
import { clientOptions, type RunOptions } from "../run/run-options.ts";
import { ScenarioRun } from "../run/scenario-run.ts";
import type { LoadedScenario } from "../scenario/scenario.ts";
import { scenarioLocation } from "../scenario/scenario-location.ts";
import { startScenarioTarget, type ScenarioTarget } from "../target/scenario-target.ts";
import type { ScenarioSuiteOptions } from "./describe-scenarios.ts";
import { ScenarioFailure } from "./scenario-failure.ts";
import { runIdOf, type Config } from "../../config.ts";
import type { FinalReport, TurnReport } from "../checks/turn-report.ts";
import { conversationSlot } from "../limits/conversation-slot.ts";
import { suiteRunOptions } from "./suite-run-options.ts";

/**
 * The first test of every scenario: the app (or the external target) is up, lists the scenario's
 * flow with every step the scenario names, and its store answers.
 */
export const START_TEST = "the target starts, serves the flow, and the persisted contract can be checked";

// A target that fails to start (bad environment, missing cassette) fails the first test with its
// error, and the turns are skipped saying so, instead of all being cancelled without a word.
const NOT_STARTED = "the target did not start; the first test has the error";
// A target that does not serve the scenario's flow as the file expects would fail every turn for
// that one reason: the first test says it once, and the turns are skipped.
const NOT_SERVED = "the target does not serve this scenario's flow as the file expects; the first test has the problems";

/**
 * What one conversation's suite shares between its tests: the target, the run, the transcript
 * writer and the judge. Each test method is the body of one node:test test. What a test needs is
 * played once, whichever asks first: the test itself, as node:test reaches it, or the background,
 * which plays the whole conversation ahead of its tests (`playInBackground`) so that several
 * conversations are in flight while node:test still reports one suite after another, in order.
 */
export class ScenarioSuite {
  readonly #loaded: LoadedScenario;
  readonly #options: ScenarioSuiteOptions;
  readonly #artifactsDir: string;
  readonly #writer: TranscriptWriter;
  readonly #results: ResultsRecorder;
  #target: ScenarioTarget | undefined;
  #run: ScenarioRun | undefined;
  #judging: JudgeSetup | undefined;
  #runOptions: RunOptions = {};
  #startError: unknown;
  #problems: string[] = [];
  #storeError: unknown;
  /** Why the conversation was never started (the run's token budget was spent). */
  #notStarted: string | undefined;
  #ready: Promise<void> | undefined;
  readonly #plays: Promise<TurnReport>[] = [];
  #finished: Promise<FinalReport> | undefined;
  /** The turns whose failure a test has reported: any other is the next test's to report. */
  readonly #reported = new Set<number>();
  #background: Promise<void> | undefined;
  #closed: Promise<void> | undefined;

  constructor(loaded: LoadedScenario, options: ScenarioSuiteOptions) {
    this.#loaded = loaded;
    this.#options = options;
    this.#artifactsDir = options.artifactsDir ?? "test/.tmp";
    this.#writer = new TranscriptWriter(this.#artifactsDir);
    this.#results = new ResultsRecorder(loaded, this.#artifactsDir);
  }

  /** Boots the target and checks that it serves the flow and that its store answers. */
  ready(): Promise<void> {
    return (this.#ready ??= this.#prepare());
  }

  /**
   * Plays the conversation now, once one of the run's `concurrency` slots is free, and gives the
   * slot back once its target is closed; the tests then report what it played.
   */
  playInBackground(config: Config, concurrency: number): void {
    const slot = conversationSlot(config, concurrency, this.#loaded);
    this.#ready = slot.then((held) => (held.skip ? this.#skipUnstarted(held.skip) : this.#prepare()));
    // Each test that awaits it still gets its rejection.
    this.#ready.catch(() => undefined);
    this.#background = (async () => {
      const held = await slot;
      try {
        await this.#ready;
        if (this.#unready() !== undefined) return;
        await this.#finish();
      } finally {
        await this.#close();
        held.release();
      }
    })().catch(() => undefined);
  }

  async end(): Promise<void> {
    await this.#background;
    await this.#close();
  }

  async startTest(t: TestContext): Promise<void> {
    await this.ready();
    if (this.#notStarted !== undefined) return t.skip(this.#notStarted);
    if (this.#startError) throw this.#startError;
    if (this.#problems.length) throw new ScenarioFailure("scenario_invalid", this.#problems.join("\n"));
    if (!this.#target!.sessions) return t.skip(this.#target!.sessionsUnavailable ?? "no store to read");
    if (this.#storeError) throw this.#storeError;
  }

  async turnTest(t: TestContext, index: number): Promise<void> {
    if (await this.#skippedUnready(t)) return;
    const report = await this.#play(index);
    this.#claimEarlierFailure(index, ` (played before turn ${index + 1}, which needs it)`);
    if (report.outcome === "failed") this.#fail(report.failure, index);
    if (report.outcome === "skipped") t.skip(report.skipReason);
  }

  async judgeTest(t: TestContext, index: number): Promise<void> {
    if (await this.#skippedUnready(t)) return;
    const label = this.#loaded.scenario.turns[index]!.label;
    // A turn whose own test did not run (a name filter) was not played for its judge alone.
    const report = await this.#plays[index];
    const verdict = report?.checks.find((c) => c.contract === "judge");
    if (!report || report.outcome === "skipped") t.skip(report?.skipReason ?? `turn ${index + 1} did not run`);
    else if (!verdict) this.#fail(`turn ${index + 1} '${label}' has no judge verdict`, index);
    else if (verdict.outcome === "skipped") t.skip(verdict.message);
    else if (verdict.outcome === "failed") this.#fail(`turn ${index + 1} '${label}': ${verdict.message}`, index);
  }

  async finalTest(t: TestContext): Promise<void> {
    if (await this.#skippedUnready(t)) return;
    const report = await this.#finish();
    this.#claimEarlierFailure(this.#loaded.scenario.turns.length, " (played before the final state, which needs it)");
    const stats = this.#judging?.stats;
    if (stats && stats.calls + stats.cached + stats.replayed > 0) {
      t.diagnostic(
        `judge: ${stats.calls} calls made, ${stats.cached} cached, ${stats.replayed} replayed; ${stats.promptTokens + stats.completionTokens} tokens (${stats.promptTokens} prompt, ${stats.completionTokens} completion)`,
      );
    }
    if (report.outcome === "skipped") t.skip(report.skipReason);
    if (report.outcome === "failed") this.#fail(report.failure, undefined);
  }

  async #prepare(): Promise<void> {
    try {
      this.#target = await startScenarioTarget(this.#loaded, { flows: this.#options.flows });
    } catch (error) {
      this.#startError = error;
      this.#results.notStarted(`the target did not start: ${(error as Error).message}`);
      return;
    }
    const target = this.#target;
    const prepared = suiteRunOptions(target, this.#options, this.#artifactsDir);
    this.#judging = prepared.judging;
    this.#runOptions = prepared.run;
    const flow = this.#options.flows.find((entry) => entry.flow.name === this.#loaded.scenario.flowName)!.flow;
    this.#run = new ScenarioRun(this.#loaded, target, prepared.run).on(this.#writer.listener).on(this.#results.listener).on((event) => {
      if (event.type === "final" && event.report.stored) noteCoverage(this.#artifactsDir, runIdOf(), flow, event.report.stored);
    });
    this.#run.start();
    const client = new ChatClient(target.baseUrl, target.agent, clientOptions(this.#runOptions));
    try {
      this.#problems = await flowProblems(client, this.#loaded.scenario);
    } catch (error) {
      this.#problems = [(error as Error).message];
    } finally {
      client.close();
    }
    if (this.#problems.length) {
      this.#results.notStarted(`the target does not serve the flow as the file expects: ${this.#problems.join("; ")}`);
      return;
    }
    if (!target.sessions) return;
    // A read of an id no server makes proves the store answers before any turn relies on it.
    try {
      assert.equal(await target.sessions.fetchAll("00000000-0000-0000-0000-000000000000"), undefined);
    } catch (error) {
      this.#storeError = error;
    }
  }

  /** Turn `index`, after the turns before it; skipped, saying so, after a failed one. */
  #play(index: number): Promise<TurnReport> {
    return (this.#plays[index] ??= (async () => {
      if (index > 0) await this.#play(index - 1);
      const run = this.#run!;
      const failed = run.failedTurn;
      return failed ? run.skipTurn(index, `turn ${failed.number} failed`) : await run.playTurn(index);
    })());
  }

  #finish(): Promise<FinalReport> {
    return (this.#finished ??= (async () => {
      const turns = this.#loaded.scenario.turns.length;
      if (turns > 0) await this.#play(turns - 1);
      return this.#run!.finish();
    })());
  }

  #close(): Promise<void> {
    return (this.#closed ??= (async () => {
      this.#run?.end();
      await this.#target?.close();
    })());
  }

  /**
   * A failed turn before `index` whose own test did not report it (a name filter skipped that
   * test) fails the asking test, or a filtered run would pass without a word.
   */
  #claimEarlierFailure(index: number, why: string): void {
    const failed = this.#run?.failedTurn;
    const at = failed ? failed.number - 1 : -1;
    if (failed && at < index && !this.#reported.has(at)) {
      this.#reported.add(at);
      this.#fail(failed.failure, at, why);
    }
    this.#reported.add(index);
  }

  /** The run's token budget was spent before this conversation could start. */
  #skipUnstarted(why: string): void {
    this.#notStarted = why;
    this.#results.notStarted(why);
  }

  #unready(): string | undefined {
    if (this.#notStarted !== undefined) return this.#notStarted;
    return this.#startError !== undefined ? NOT_STARTED : this.#problems.length ? NOT_SERVED : undefined;
  }

  /** Skips the test, saying why, when the conversation never started, its target did not, or it does not serve the flow. */
  async #skippedUnready(t: TestContext): Promise<boolean> {
    await this.ready();
    const why = this.#unready();
    if (why !== undefined) t.skip(why);
    return why !== undefined;
  }

  /** Fails the test; the turn's (or, without an index, the final expectations') line leads, for editors to open. */
  #fail(failure: string | undefined, turnIndex: number | undefined, after = ""): never {
    const path = this.#writer.path;
    const transcript = path ? `\nTranscript: ${path} (npm run transcript -- ${path})` : "";
    throw new ScenarioFailure("scenario_failed", `${failure}${after}${transcript}`, scenarioLocation(this.#loaded, turnIndex) ?? this.#loaded.name);
  }
}
