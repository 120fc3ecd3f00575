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
 * writer and the judge. Each test method is the body of one node:test test.
 */
export class ScenarioSuite {
  readonly #loaded: LoadedScenario;
  readonly #options: ScenarioSuiteOptions;
  readonly #artifactsDir: string;
  readonly #writer: TranscriptWriter;
  readonly #results: ResultsRecorder;
  #target: ScenarioTarget | undefined;
  #run!: ScenarioRun;
  #judging: JudgeSetup | undefined;
  #runOptions: RunOptions = {};
  #startError: unknown;
  #unserved = false;

  constructor(loaded: LoadedScenario, options: ScenarioSuiteOptions) {
    this.#loaded = loaded;
    this.#options = options;
    this.#artifactsDir = options.artifactsDir ?? "test/.tmp";
    this.#writer = new TranscriptWriter(this.#artifactsDir);
    this.#results = new ResultsRecorder(loaded, this.#artifactsDir);
  }

  async start(): Promise<void> {
    try {
      this.#target = await startScenarioTarget(this.#loaded, { flows: this.#options.flows });
    } catch (error) {
      this.#startError = error;
      this.#results.notStarted(`the target did not start: ${(error as Error).message}`);
      return;
    }
    const prepared = suiteRunOptions(this.#target, this.#options, this.#artifactsDir);
    this.#judging = prepared.judging;
    this.#runOptions = prepared.run;
    const flow = this.#options.flows.find((entry) => entry.flow.name === this.#loaded.scenario.flowName)!.flow;
    const coverageRun = this.#target.config?.coverageRun;
    this.#run = new ScenarioRun(this.#loaded, this.#target, prepared.run).on(this.#writer.listener).on(this.#results.listener).on((event) => {
      if (event.type === "final" && event.report.stored) noteCoverage(this.#artifactsDir, coverageRun, flow, event.report.stored);
    });
    this.#run.start();
  }

  async end(): Promise<void> {
    this.#run?.end();
    await this.#target?.close();
  }

  async startTest(t: TestContext): Promise<void> {
    if (this.#startError) throw this.#startError;
    const target = this.#target!;
    const client = new ChatClient(target.baseUrl, target.agent, clientOptions(this.#runOptions));
    let problems: string[];
    try {
      problems = await flowProblems(client, this.#loaded.scenario);
    } catch (error) {
      problems = [(error as Error).message];
    } finally {
      client.close();
    }
    if (problems.length) {
      this.#unserved = true;
      this.#results.notStarted(`the target does not serve the flow as the file expects: ${problems.join("; ")}`);
      throw new ScenarioFailure("scenario_invalid", problems.join("\n"));
    }
    if (!target.sessions) {
      t.skip(target.sessionsUnavailable ?? "no store to read");
      return;
    }
    // A read of an id no server makes proves the store answers before any turn relies on it.
    assert.equal(await target.sessions.fetchAll("00000000-0000-0000-0000-000000000000"), undefined);
  }

  async turnTest(t: TestContext, index: number): Promise<void> {
    if (this.#skippedUnready(t)) return;
    await this.#playUpTo(index, ` (played before turn ${index + 1}, which needs it)`);
    const failedTurn = this.#run.failedTurn;
    if (failedTurn) {
      const reason = `turn ${failedTurn.number} failed`;
      this.#run.skipTurn(index, reason);
      t.skip(reason);
      return;
    }
    const report = await this.#run.playTurn(index);
    if (report.outcome === "failed") this.#fail(report.failure, index);
    if (report.outcome === "skipped") t.skip(report.skipReason);
  }

  judgeTest(t: TestContext, index: number): void {
    if (this.#skippedUnready(t)) return;
    const label = this.#loaded.scenario.turns[index]!.label;
    const report = this.#run.reports[index];
    const verdict = report?.checks.find((c) => c.contract === "judge");
    if (!report || report.outcome === "skipped") t.skip(report?.skipReason ?? `turn ${index + 1} did not run`);
    else if (!verdict) this.#fail(`turn ${index + 1} '${label}' has no judge verdict`, index);
    else if (verdict.outcome === "skipped") t.skip(verdict.message);
    else if (verdict.outcome === "failed") this.#fail(`turn ${index + 1} '${label}': ${verdict.message}`, index);
  }

  async finalTest(t: TestContext): Promise<void> {
    if (this.#skippedUnready(t)) return;
    await this.#playUpTo(this.#loaded.scenario.turns.length, " (played before the final state, which needs it)");
    const report = await this.#run.finish();
    const stats = this.#judging?.stats;
    if (stats && stats.calls + stats.cached + stats.replayed > 0) {
      t.diagnostic(
        `judge: ${stats.calls} calls made, ${stats.cached} cached, ${stats.replayed} replayed; ${stats.promptTokens + stats.completionTokens} tokens (${stats.promptTokens} prompt, ${stats.completionTokens} completion)`,
      );
    }
    if (report.outcome === "skipped") t.skip(report.skipReason);
    if (report.outcome === "failed") this.#fail(report.failure, undefined);
  }

  /** Skips the test, saying why, when the target did not start or does not serve the flow. */
  #skippedUnready(t: TestContext): boolean {
    const why = this.#startError !== undefined ? NOT_STARTED : this.#unserved ? NOT_SERVED : undefined;
    if (why) t.skip(why);
    return why !== undefined;
  }

  /**
   * Plays the turns before `count` that have not been played: a name filter may have skipped
   * them, and the conversation still needs them. A failure among them is the asking test's, or a
   * filtered run would pass without a word.
   */
  async #playUpTo(count: number, why: string): Promise<void> {
    while (this.#run.reports.length < count && !this.#run.failedTurn) {
      const earlier = await this.#run.playTurn(this.#run.reports.length);
      if (earlier.outcome === "failed") this.#fail(earlier.failure, earlier.number - 1, why);
    }
  }

  /** Fails the test; the turn's (or, without an index, the final expectations') line leads, for editors to open. */
  #fail(failure: string | undefined, turnIndex: number | undefined, after = ""): never {
    const path = this.#writer.path;
    const transcript = path ? `\nTranscript: ${path} (npm run transcript -- ${path})` : "";
    throw new ScenarioFailure("scenario_failed", `${failure}${after}${transcript}`, scenarioLocation(this.#loaded, turnIndex) ?? this.#loaded.name);
  }
}
