import type { TestContext } from "node:test";
import type { Config } from "../../config.ts";
import type { FinalReport, SimulationReport } from "../checks/turn-report.ts";
import { passK } from "../report/pass-k.ts";
import { passKText } from "../report/pass-k-shown.ts";
import { ConversationEvents } from "../report/conversation-events.ts";
import { currentRun, ownSuite, suiteLimits } from "../report/current-run.ts";
import type { RunRecord } from "../report/run-record.ts";
import { TranscriptDraft } from "../report/transcript-draft.ts";
import { applyTranscriptStep, transcriptPath } from "../report/transcript-writer.ts";
import { secretValuesOf } from "../target/secret-values-of.ts";
import { secretsOf } from "../report/without-secrets.ts";
import { ScenarioPlay, type PlayStart } from "../run/scenario-play.ts";
import type { LoadedScenario } from "../scenario/scenario.ts";
import { scenarioLocation } from "../scenario/scenario-location.ts";
import type { ParallelPlay } from "./parallel-play.ts";
import { holdRate, skippedInEveryRun, type RunOutcome } from "./repeat-rate.ts";
import { ScenarioFailure } from "./scenario-failure.ts";
import type { SuiteOptions } from "./suite-options.ts";
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
const NOT_SERVED =
  "the target does not serve this scenario's flow as the file expects; the first test has the problems";

/** How a simulated conversation ended, in words. */
function endText(simulation: SimulationReport): string {
  return `${simulation.end.reason} (${simulation.end.detail})`;
}

/** Why a play's turns cannot be played, or undefined when they can. */
function unready(start: PlayStart): string | undefined {
  if (start.state === "unstarted") return start.why;
  return start.state === "failed" ? NOT_STARTED : start.state === "unserved" ? NOT_SERVED : undefined;
}

interface Run {
  play: ScenarioPlay;
  transcript: TranscriptDraft;
  events: ConversationEvents;
}

/**
 * What one conversation's suite shares between its tests: its `repeat` plays (each on a fresh app,
 * with its own transcript and entry in the results) and the node:test tests they map onto. Each
 * test method is the body of one test, and the same tests stand for one run or several: with one,
 * a test fails with its run's failure; with several, it reports how many runs passed and fails
 * below `passRate`. The playing itself is `ScenarioPlay`'s; this only reports it.
 */
export class ScenarioSuite {
  readonly #loaded: LoadedScenario;
  readonly #runs: Run[];
  readonly #passRate: number;
  /** The turns whose failure a test has reported: any other is the next test's to report. */
  readonly #reported = new Set<number>();
  readonly #record: RunRecord | undefined;
  readonly #artifactsDir: string;

  constructor(
    loaded: LoadedScenario,
    options: SuiteOptions,
    repeat: number,
    passRate: number,
    config?: Config | Error,
  ) {
    this.#loaded = loaded;
    this.#passRate = passRate;
    const artifactsDir = options.artifactsDir ?? "test/.tmp";
    // A flow that a target of another kind serves has no definition here, but an outline.
    const flow = options.flows.find((entry) => entry.flow.name === loaded.scenario.flowName)?.flow;
    const run = options.run ?? currentRun();
    const record = ownSuite(run, artifactsDir);
    // The run's summary counts the requests of the suites it records, and no others.
    const limits = suiteLimits(run, artifactsDir);
    // The values flowcheck.config.json's headers resolve to, FLOW_HEADERS' and the keys' never
    // reach an event (nor so a transcript or the results), whatever echoed them.
    const secrets = [
      ...(options.targets ? secretValuesOf(options.targets) : []),
      ...(config && !(config instanceof Error) ? secretsOf(config.env) : []),
    ];
    this.#runs = Array.from({ length: repeat }, (_, index) => {
      // Each run is in the results even if an earlier one stops the others from starting.
      const transcript = new TranscriptDraft(repeat === 1 ? undefined : `run${index + 1}`);
      const events = new ConversationEvents(loaded, record, {
        repeat: { index: index + 1, of: repeat },
        secrets,
        coverage: flow ? { flow } : options.outline ? { outline: options.outline } : undefined,
        // In a run the transcripts reporter writes the file; a suite on its own writes it here.
        sink: (event) => {
          const step = transcript.add(event);
          if (!record) applyTranscriptStep(artifactsDir, transcript, step);
        },
      });
      const play = new ScenarioPlay(loaded, {
        flows: options.flows,
        runOptions: (target) =>
          suiteRunOptions(target, options, artifactsDir, loaded.scenario.flowName, run.environment),
        listeners: [events.listener],
        notStarted: (why) => events.notStarted(why),
        limits,
        environment: run.environment,
        graphsAsked: run.graphsAsked,
        ...(config ? { config } : {}),
        ...("targets" in options ? { targets: options.targets } : {}),
      });
      return { play, transcript, events };
    });
    this.#record = record;
    this.#artifactsDir = artifactsDir;
  }

  /**
   * Plays every run ahead of the tests, each within one of the run's slots, so that several
   * conversations (and the repeats of one) are in flight while node:test still reports one suite
   * after another, in order.
   */
  playInBackground(parallel: ParallelPlay): void {
    for (const { play } of this.#runs) play.playInBackground(parallel.config, parallel.concurrency);
  }

  /** Plays every run but the last whole, one after another; the last is played as its tests ask. */
  async playInTurn(): Promise<void> {
    for (const { play } of this.#runs.slice(0, -1)) await play.playWhole();
    await this.#runs.at(-1)!.play.ready();
  }

  async end(): Promise<void> {
    for (const { play } of this.#runs) await play.end();
    this.#tellRepeats();
  }

  /** A conversation played several times, summed up in the run's events: how many runs passed, and pass^k for a simulated one. */
  #tellRepeats(): void {
    const of = this.#runs.length;
    if (!this.#record || of < 2) return;
    const passed = this.#runs.filter(({ events }) => events.outcome === "passed").length;
    const { file, name, scenario } = this.#loaded;
    this.#record.emit({
      type: "repeat",
      data: {
        file,
        name,
        flowName: scenario.flowName,
        of,
        passed,
        passRate: passed / of,
        ...(scenario.user ? { passK: passK(passed, of) } : {}),
      },
    });
  }

  async startTest(t: TestContext): Promise<void> {
    const starts = await Promise.all(this.#runs.map(({ play }) => play.ready()));
    for (const start of starts) {
      if (start.state === "failed") throw start.error;
      if (start.state === "unserved") throw new ScenarioFailure("scenario_invalid", start.problems.join("\n"));
    }
    const skip = starts.find(
      (start) => start.state === "unstarted" || (start.state === "ready" && start.sessionsUnavailable !== undefined),
    );
    for (const start of starts) if (start.state === "ready" && start.storeError) throw start.storeError;
    if (skip?.state === "unstarted") return t.skip(skip.why);
    if (skip?.state === "ready") return t.skip(skip.sessionsUnavailable);
  }

  async turnTest(t: TestContext, index: number): Promise<void> {
    const reports = await this.#each((play) => play.turn(index));
    if (this.#runs.length === 1) {
      const [report] = reports;
      if (typeof report === "string") return t.skip(report);
      this.#claimEarlierFailure(index, ` (played before turn ${index + 1}, which needs it)`);
      if (report!.outcome === "failed") this.#fail(report!.failure, index);
      if (report!.outcome === "skipped") t.skip(report!.skipReason);
      return;
    }
    const outcomes = reports.map((report) =>
      typeof report === "string"
        ? { outcome: "skipped" as const, why: report }
        : { outcome: report.outcome, why: report.failure ?? report.skipReason },
    );
    this.#holdRate(t, outcomes, `turn ${index + 1} '${this.#label(index)}'`, index);
  }

  async judgeTest(t: TestContext, index: number): Promise<void> {
    // A turn whose own test did not run (a name filter) was not played for its judge alone.
    const reports = await this.#each((play) => play.run.played(index) ?? Promise.resolve(undefined));
    const name = `turn ${index + 1} '${this.#label(index)}'`;
    if (this.#runs.length === 1) {
      const [report] = reports;
      if (typeof report === "string") return t.skip(report);
      const verdict = report?.checks.find((c) => c.contract === "judge");
      if (!report || report.outcome === "skipped") t.skip(report?.skipReason ?? `turn ${index + 1} did not run`);
      else if (!verdict) this.#fail(`${name} has no judge verdict`, index);
      else if (verdict.outcome === "skipped") t.skip(verdict.message);
      else if (verdict.outcome === "failed") this.#fail(`${name}: ${verdict.message}`, index);
      return;
    }
    const verdicts = reports.map((report) =>
      typeof report === "string" ? undefined : report?.checks.find((c) => c.contract === "judge"),
    );
    const graded = verdicts.filter((verdict) => verdict && verdict.outcome !== "skipped");
    if (graded.length === 0)
      return t.skip(verdicts.find((verdict) => verdict?.message)?.message ?? "the turn was never graded");
    const outcomes = verdicts.map(
      (verdict): RunOutcome => ({
        outcome: verdict?.outcome === "passed" ? "passed" : "failed",
        why: verdict?.message ?? "not graded",
        score: verdict?.outcome === "skipped" ? undefined : verdict?.verdict?.score,
      }),
    );
    this.#holdRate(t, outcomes, `the judge of ${name}`, index, true);
  }

  /**
   * The simulated user's conversation: a subtest for each message the user wrote, named by its
   * number and the message, with the turn's contracts; then how the conversation ended. Over several
   * runs each run is a subtest saying how it went, and the test holds the pass rate over the runs
   * whose user's side ended well (the final state grades their success).
   */
  async simulationTest(t: TestContext): Promise<void> {
    const fixed = this.#loaded.scenario.turns.length;
    const simulations = await this.#each((play) => play.run.simulation());
    if (this.#runs.length === 1) {
      const [simulation] = simulations;
      if (typeof simulation === "string") return t.skip(simulation);
      this.#claimEarlierFailure(fixed, " (played before the simulated user, who goes on from it)");
      if (!simulation) return t.skip(`turn ${this.#runs[0]!.play.run.failedTurn?.number} failed`);
      for (const report of this.#runs[0]!.play.run.simulatedReports)
        await t.test(`${report.number}. ${report.label}`, (turn) => {
          if (report.outcome === "failed") this.#fail(report.failure, undefined);
          if (report.outcome === "skipped") turn.skip(report.skipReason);
        });
      t.diagnostic(`${simulation.player} wrote ${simulation.userTurns} messages; ended: ${endText(simulation)}`);
      if (simulation.end.reason === "user-failed")
        this.#fail(`the simulated user failed: ${simulation.end.detail}`, undefined);
      return;
    }
    const outcomes = await Promise.all(
      simulations.map(async (simulation, index): Promise<RunOutcome> => {
        const name = `run ${index + 1}`;
        if (typeof simulation === "string" || !simulation) {
          const why = typeof simulation === "string" ? simulation : "an opening turn failed";
          await t.test(name, (run) => run.skip(why));
          return { outcome: "skipped", why };
        }
        await t.test(name, (run) => {
          run.diagnostic(`${simulation.player} wrote ${simulation.userTurns} messages; ended: ${endText(simulation)}`);
        });
        const failedEnd = simulation.end.reason === "user-failed" || simulation.end.reason === "turn-failed";
        return failedEnd ? { outcome: "failed", why: endText(simulation) } : { outcome: "passed" };
      }),
    );
    this.#holdRate(t, outcomes, "the simulated user's conversation", undefined);
  }

  async finalTest(t: TestContext): Promise<void> {
    const finals = await this.#each((play) => play.finish());
    this.#judgeStats(t);
    if (this.#runs.length === 1) {
      const [report] = finals;
      if (typeof report === "string") return t.skip(report);
      this.#claimEarlierFailure(this.#loaded.scenario.turns.length, " (played before the final state, which needs it)");
      if (report!.outcome === "skipped") t.skip(report!.skipReason);
      if (report!.outcome === "failed") this.#fail(report!.failure, undefined);
      return;
    }
    if (this.#loaded.scenario.user) this.#passK(t, finals);
    const outcomes = finals.map(
      (report: FinalReport | string): RunOutcome =>
        typeof report === "string"
          ? { outcome: "skipped", why: report }
          : { outcome: report.outcome, why: report.failure ?? report.skipReason },
    );
    this.#holdRate(t, outcomes, "the final state", undefined);
  }

  /**
   * A simulated scenario's successes over its tries (the runs that started), and pass^k: a try
   * succeeds when nothing in it failed, its turns, its judges or its success.
   */
  #passK(t: TestContext, finals: readonly (FinalReport | string)[]): void {
    const tries = this.#runs.filter((_, index) => typeof finals[index] !== "string");
    const successes = tries.filter(({ play }) => !play.run.failed).length;
    const flaky = successes > 0 && successes < tries.length ? " · flaky" : "";
    if (tries.length === 0) return;
    t.diagnostic(`${successes}/${tries.length} tries succeeded${flaky}; ${passKText(passK(successes, tries.length))}`);
  }

  /** What `read` gives of each run, or why the run's turns cannot be played. */
  async #each<T>(read: (play: ScenarioPlay) => Promise<T>): Promise<(T | string)[]> {
    return await Promise.all(
      this.#runs.map(async ({ play }) => {
        const why = unready(await play.ready());
        return why === undefined ? await read(play) : why;
      }),
    );
  }

  #holdRate(
    t: TestContext,
    outcomes: RunOutcome[],
    label: string,
    turnIndex: number | undefined,
    scored = false,
  ): void {
    const skipped = skippedInEveryRun(outcomes);
    if (skipped !== undefined && !scored) return t.skip(skipped);
    holdRate(t, outcomes, {
      label,
      location: scenarioLocation(this.#loaded, turnIndex),
      passRate: this.#passRate,
      scored,
    });
  }

  #label(index: number): string {
    return this.#loaded.scenario.turns[index]!.label;
  }

  /** The judge's calls and tokens over the runs, when it was asked at all. */
  #judgeStats(t: TestContext): void {
    const all = this.#runs.flatMap(({ play }) => (play.judging ? [play.judging.stats] : []));
    const sum = (pick: (stats: (typeof all)[number]) => number) => all.reduce((total, stats) => total + pick(stats), 0);
    const [calls, cached, replayed, prompt, completion] = [
      sum((s) => s.calls),
      sum((s) => s.cached),
      sum((s) => s.replayed),
      sum((s) => s.promptTokens),
      sum((s) => s.completionTokens),
    ];
    if (calls + cached + replayed === 0) return;
    t.diagnostic(
      `judge: ${calls} calls made, ${cached} cached, ${replayed} replayed; ${prompt + completion} tokens (${prompt} prompt, ${completion} completion)`,
    );
  }

  /**
   * A failed turn before `index` whose own test did not report it (a name filter skipped that
   * test) fails the asking test, or a filtered run would pass without a word. Over several runs a
   * turn after a failed one counts that run as not passed, which says it already.
   */
  #claimEarlierFailure(index: number, why: string): void {
    const failed = this.#runs[0]!.play.run.failedTurn;
    const at = failed ? failed.number - 1 : -1;
    if (failed && at < index && !this.#reported.has(at)) {
      this.#reported.add(at);
      this.#fail(failed.failure, at, why);
    }
    this.#reported.add(index);
  }

  /** Fails the test; the turn's (or, without an index, the final expectations') line leads, for editors to open. */
  #fail(failure: string | undefined, turnIndex: number | undefined, after = ""): never {
    const path = transcriptPath(this.#artifactsDir, this.#runs[0]!.transcript);
    const transcript = path ? `\nTranscript: ${path} (flowcheck transcript ${path})` : "";
    throw new ScenarioFailure(
      "scenario_failed",
      `${failure}${after}${transcript}`,
      scenarioLocation(this.#loaded, turnIndex) ?? this.#loaded.name,
    );
  }
}
