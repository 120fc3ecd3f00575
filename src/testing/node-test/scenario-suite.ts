import type { TestContext } from "node:test";
import type { Config } from "../../config.ts";
import type { Check } from "../checks/check.ts";
import type { FinalReport, SimulationReport } from "../checks/turn-report.ts";
import { samplesText } from "../judge/samples-text.ts";
import { passK } from "../report/pass-k.ts";
import { passKText } from "../report/pass-k-shown.ts";
import { ConversationEvents } from "../report/conversation-events.ts";
import { currentRun, ownSuite, suiteLimits } from "../report/current-run.ts";
import type { RunRecord } from "../report/run-record.ts";
import { TranscriptWriter } from "../report/transcript-writer.ts";
import { secretValuesOf } from "../target/secret-values-of.ts";
import { secretsOf } from "../report/without-secrets.ts";
import { PlayReach } from "../run/play-reach.ts";
import { ScenarioPlay, type PlaySlot, type PlayStart } from "../run/scenario-play.ts";
import type { LoadedScenario } from "../scenario/scenario.ts";
import { scenarioLocation } from "../scenario/scenario-location.ts";
import { verdictOverRuns, type RunOutcome } from "./repeat-rate.ts";
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
  transcript: TranscriptWriter;
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
  readonly #reach: PlayReach;
  #playing: Promise<void> | undefined;

  /**
   * `plan.filtered`: node:test's filters may leave some of the suite's tests unrun, so a play goes
   * only as far as the tests that ran ask it to, and stops when the suite ends.
   */
  constructor(
    loaded: LoadedScenario,
    options: SuiteOptions,
    plan: { repeat: number; passRate: number; filtered: boolean },
    config?: Config | Error,
  ) {
    const { repeat } = plan;
    this.#loaded = loaded;
    this.#passRate = plan.passRate;
    const reach = (this.#reach = new PlayReach(plan.filtered ? -1 : Number.POSITIVE_INFINITY));
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
      // In a run the transcripts reporter writes the file; a suite on its own writes it here.
      const transcript = new TranscriptWriter(artifactsDir, repeat === 1 ? undefined : `run${index + 1}`, [], {
        writes: !record,
      });
      const events = new ConversationEvents(loaded, record, {
        repeat: { index: index + 1, of: repeat },
        secrets,
        coverage: flow ? { flow } : options.outline ? { outline: options.outline } : undefined,
        sink: transcript.take,
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
        startedApps: run.startedApps,
        reach,
        ...(config ? { config } : {}),
        ...("targets" in options ? { targets: options.targets } : {}),
      });
      return { play, transcript, events };
    });
    this.#record = record;
  }

  /**
   * Plays every run now, as far as the tests ask: within one of the run's slots each, when `slot`
   * is given, so that several conversations (and the repeats of one) are in flight while node:test
   * still reports one suite after another, in order; else one run after another, the next once the
   * one before is over or waits for a test to ask for more.
   */
  play(slot?: PlaySlot): void {
    const plays = this.#runs.map(({ play }) => play);
    this.#playing = slot
      ? Promise.all(plays.map((play) => play.play(slot))).then(() => undefined)
      : (async () => {
          for (const play of plays) await play.play();
        })();
  }

  /** Nobody will ask the plays for more: each stops where it is, and its target is closed. */
  async end(): Promise<void> {
    this.#reach.stop();
    await this.#playing;
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
    const earlier = this.#earlierFailures(index, reports, ` (played before turn ${index + 1}, which needs it)`);
    const outcomes = reports.map((report, run): RunOutcome => {
      if (typeof report === "string") return skippedRun(report);
      if (earlier[run]) return earlier[run];
      if (!report) return skippedRun(`turn ${index + 1} was not played`);
      return { outcome: report.outcome, why: report.failure ?? report.skipReason, location: this.#where(index) };
    });
    this.#verdict(t, outcomes, `turn ${index + 1} '${this.#label(index)}'`, index);
  }

  async judgeTest(t: TestContext, index: number): Promise<void> {
    // A turn whose own test did not run (a name filter) was not played for its judge alone.
    const reports = await this.#each((play) => play.turnIfPlayed(index));
    const name = `turn ${index + 1} '${this.#label(index)}'`;
    const outcomes = reports.map((report, run): RunOutcome => {
      if (typeof report === "string") return skippedRun(report);
      if (!report || report.outcome === "skipped")
        return skippedRun(report?.skipReason ?? `turn ${index + 1} did not run`);
      const verdict = report.checks.find((c) => c.contract === "judge");
      this.#tellUnstable(t, verdict, run);
      const location = this.#where(index);
      if (!verdict) return { outcome: "failed", why: "not graded", failure: `${name} has no judge verdict`, location };
      if (verdict.outcome === "skipped") return skippedRun(verdict.message);
      const score = verdict.verdict?.score;
      if (verdict.outcome === "passed") return { outcome: "passed", score };
      return { outcome: "failed", why: verdict.message, failure: `${name}: ${verdict.message}`, score, location };
    });
    this.#verdict(t, outcomes, `the judge of ${name}`, index, true);
  }

  /** A verdict whose samples disagreed, said under its judge test (of which run, when there are several). */
  #tellUnstable(t: TestContext, check: Check | undefined, run: number): void {
    const verdict = check?.verdict;
    if (!verdict?.unstable || !verdict.samples) return;
    const of = this.#runs.length > 1 ? `run ${run + 1}: ` : "";
    t.diagnostic(`${of}unstable: ${samplesText(verdict.samples, verdict.minScore)}`);
  }

  /**
   * The simulated user's conversation: a subtest for each message the user wrote, named by its
   * number and the message, with the turn's contracts; then how the conversation ended. Over several
   * runs each run is a subtest saying how it went, and the test holds the pass rate over the runs
   * whose user's side ended well (the final state grades their success).
   */
  async simulationTest(t: TestContext): Promise<void> {
    const fixed = this.#loaded.scenario.turns.length;
    const simulations = await this.#each((play) => play.simulation());
    const earlier = this.#earlierFailures(
      fixed,
      simulations,
      " (played before the simulated user, who goes on from it)",
    );
    const outcomes: RunOutcome[] = [];
    for (const [run, simulation] of simulations.entries()) {
      if (simulation && typeof simulation !== "string") {
        outcomes.push(await this.#showSimulation(t, run, simulation));
        continue;
      }
      // No simulated user goes on after a failed turn.
      const why =
        typeof simulation === "string" ? simulation : `turn ${this.#runs[run]!.play.run.failedTurn?.number} failed`;
      if (this.#runs.length > 1) await t.test(`run ${run + 1}`, (each) => each.skip(why));
      outcomes.push(earlier[run] ?? skippedRun(why));
    }
    this.#verdict(t, outcomes, "the simulated user's conversation", undefined);
  }

  /** How one run's simulated conversation went, shown as subtests: its messages' for one run, the run's among several. */
  async #showSimulation(t: TestContext, run: number, simulation: SimulationReport): Promise<RunOutcome> {
    const ended = `${simulation.player} wrote ${simulation.userTurns} messages; ended: ${endText(simulation)}`;
    const userFailed = simulation.end.reason === "user-failed";
    const failure = userFailed ? `the simulated user failed: ${simulation.end.detail}` : undefined;
    const failedEnd = userFailed || simulation.end.reason === "turn-failed";
    const outcome: RunOutcome = failedEnd
      ? { outcome: "failed", why: endText(simulation), failure, location: this.#where(undefined) }
      : { outcome: "passed" };
    if (this.#runs.length > 1) {
      await t.test(`run ${run + 1}`, (each) => each.diagnostic(ended));
      return outcome;
    }
    for (const report of this.#runs[run]!.play.run.simulatedReports)
      await t.test(`${report.number}. ${report.label}`, (turn) => {
        if (report.outcome === "failed") this.#fail(report.failure, undefined);
        if (report.outcome === "skipped") turn.skip(report.skipReason);
      });
    t.diagnostic(ended);
    // A failed message's own subtest has said so.
    return userFailed ? outcome : { ...outcome, shown: true };
  }

  async finalTest(t: TestContext): Promise<void> {
    const finals = await this.#each((play) => play.final());
    this.#judgeStats(t);
    // pass^k is a repeat's: one run has its final state alone.
    if (this.#loaded.scenario.user && this.#runs.length > 1) this.#passK(t, finals);
    const fixed = this.#loaded.scenario.turns.length;
    const earlier = this.#earlierFailures(fixed, finals, " (played before the final state, which needs it)");
    const outcomes = finals.map((report, run): RunOutcome => {
      if (typeof report === "string") return skippedRun(report);
      if (earlier[run]) return earlier[run];
      if (!report) return skippedRun("the final state was not played");
      return { outcome: report.outcome, why: report.failure ?? report.skipReason, location: this.#where(undefined) };
    });
    this.#verdict(t, outcomes, "the final state", undefined);
  }

  /**
   * A simulated scenario's successes over its tries (the runs that started), and pass^k: a try
   * succeeds when nothing in it failed, its turns, its judges or its success.
   */
  #passK(t: TestContext, finals: readonly (FinalReport | string | undefined)[]): void {
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

  #verdict(
    t: TestContext,
    outcomes: readonly RunOutcome[],
    label: string,
    turnIndex: number | undefined,
    scored = false,
  ): void {
    verdictOverRuns(t, outcomes, {
      label,
      location: scenarioLocation(this.#loaded, turnIndex),
      passRate: this.#passRate,
      scored,
      transcript: this.#transcriptNote(),
    });
  }

  /** Where a turn (or, without an index, the final expectations) stands: its file's line, else the scenario's name. */
  #where(turnIndex: number | undefined): string {
    return scenarioLocation(this.#loaded, turnIndex) ?? this.#loaded.name;
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
   * Each run's failed turn before `index` whose own test did not report it (a name filter skipped
   * that test), as the asking test's failure, or a filtered run would pass without a word. Asked
   * once by each test, in order: a failure is claimed by the first test after it.
   */
  #earlierFailures(index: number, reports: readonly unknown[], why: string): (RunOutcome | undefined)[] {
    const claims = reports.map((report, run) => {
      if (typeof report === "string") return undefined;
      const failed = this.#runs[run]!.play.run.failedTurn;
      const at = failed ? failed.number - 1 : -1;
      return failed && at < index && !this.#reported.has(at) ? { at, failure: `${failed.failure}${why}` } : undefined;
    });
    for (const claim of claims) if (claim) this.#reported.add(claim.at);
    this.#reported.add(index);
    return claims.map((claim) =>
      claim ? { outcome: "failed", why: claim.failure, location: this.#where(claim.at) } : undefined,
    );
  }

  /** Said after a single run's failure: where its transcript is, once written. */
  #transcriptNote(): string {
    const path = this.#runs[0]!.transcript.path;
    return path ? `\nTranscript: ${path} (flowcheck transcript ${path})` : "";
  }

  /** Fails the test; the turn's (or, without an index, the final expectations') line leads, for editors to open. */
  #fail(failure: string | undefined, turnIndex: number | undefined): never {
    throw new ScenarioFailure("scenario_failed", `${failure}${this.#transcriptNote()}`, this.#where(turnIndex));
  }
}

/** A run that did not reach the test, and why. */
function skippedRun(why: string | undefined): RunOutcome {
  return { outcome: "skipped", why };
}
