import { before, describe, test, type TestContext } from "node:test";
import { runIdOf, type Config } from "../../config.ts";
import type { ScenarioSuiteOptions } from "./describe-scenarios.ts";
import type { LoadedScenario } from "../scenario/scenario.ts";
import { ScenarioFailure } from "./scenario-failure.ts";
import { scenarioLocation } from "../scenario/scenario-location.ts";
import { runScenario } from "../run/run-scenario.ts";
import type { FinalReport, TurnReport } from "../checks/turn-report.ts";
import { startScenarioTarget } from "../target/scenario-target.ts";
import { noteCoverage } from "../report/flow-coverage.ts";
import { suiteRunOptions } from "./suite-run-options.ts";
import { ResultsRecorder } from "../report/results-recorder.ts";
import { TranscriptWriter } from "../report/transcript-writer.ts";
import { conversationSlot } from "../limits/conversation-slot.ts";
import { parallelPlayOf, type ParallelPlay } from "./parallel-play.ts";
import { suiteConfigOf } from "./suite-config.ts";

interface PlayedRun {
  turns: TurnReport[];
  final: FinalReport | undefined;
}

function judgeOf(report: TurnReport | undefined) {
  return report?.checks.find((check) => check.contract === "judge");
}

function why(report: TurnReport | undefined): string {
  if (!report) return "not played";
  if (report.outcome === "skipped") return `skipped: ${report.skipReason ?? ""}`;
  return report.failure ?? "failed";
}

function spread(scores: number[]): string {
  if (scores.length === 0) return "no judge scores";
  const sorted = [...scores].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return `judge scores min ${sorted[0]!.toFixed(2)}, median ${median.toFixed(2)}, max ${sorted.at(-1)!.toFixed(2)}`;
}

/** One run of the scenario, on a fresh app, with its own transcript (`run<k>`) and entry in the results. */
async function playRun(loaded: LoadedScenario, options: ScenarioSuiteOptions, k: number, results: ResultsRecorder): Promise<PlayedRun> {
  const artifactsDir = options.artifactsDir ?? "test/.tmp";
  const flow = options.flows.find((entry) => entry.flow.name === loaded.scenario.flowName)!.flow;
  const target = await startScenarioTarget(loaded, { flows: options.flows }).catch((error: unknown) => {
    results.notStarted(`the target did not start: ${(error as Error).message}`);
    throw error;
  });
  try {
    const writer = new TranscriptWriter(artifactsDir, `run${k}`);
    const played: PlayedRun = { turns: [], final: undefined };
    for await (const event of runScenario(loaded, target, suiteRunOptions(target, options, artifactsDir).run)) {
      writer.listener(event);
      results.listener(event);
      if (event.type === "turn:end") played.turns.push(event.report);
      if (event.type === "final") played.final = event.report;
      if (event.type === "final" && event.report.stored) noteCoverage(artifactsDir, runIdOf(), flow, event.report.stored);
    }
    return played;
  } finally {
    await target.close();
  }
}

/** A run that never started, each turn and the final state skipped with the reason. */
function notStarted(loaded: LoadedScenario, reason: string): PlayedRun {
  const turns = loaded.scenario.turns.map((turn, index): TurnReport => ({ number: index + 1, label: turn.label, input: turn.input, outcome: "skipped", skipReason: reason, checks: [] }));
  return { turns, final: { outcome: "skipped", skipReason: reason, checks: [] } };
}

/**
 * Each of `repeat` runs of the scenario: one after another, or, with `parallel`, all at once
 * within the run's conversation slots, so the repeats of a live flow wait on its provider together.
 */
async function playRuns(loaded: LoadedScenario, options: ScenarioSuiteOptions, repeat: number, parallel: ParallelPlay | undefined): Promise<PlayedRun[]> {
  const ks = Array.from({ length: repeat }, (_, index) => index + 1);
  // Each run is in the results even if an earlier one stops the others from starting.
  const recorders = ks.map((k) => new ResultsRecorder(loaded, options.artifactsDir ?? "test/.tmp", { index: k, of: repeat }));
  if (!parallel) {
    const runs: PlayedRun[] = [];
    for (const k of ks) runs.push(await playRun(loaded, options, k, recorders[k - 1]!));
    return runs;
  }
  return await Promise.all(
    ks.map(async (k) => {
      const held = await conversationSlot(parallel.config, parallel.concurrency, loaded);
      try {
        if (!held.skip) return await playRun(loaded, options, k, recorders[k - 1]!);
        recorders[k - 1]!.notStarted(held.skip);
        return notStarted(loaded, held.skip);
      } finally {
        held.release();
      }
    }),
  );
}

/** The one reason every run skipped this, if they all did for the same reason: the test is then skipped too. */
function skippedInEveryRun(reports: ({ outcome: string; skipReason?: string } | undefined)[]): string | undefined {
  const reasons = new Set(reports.map((report) => (report?.outcome === "skipped" ? report.skipReason : undefined)));
  const [reason] = reasons;
  return reasons.size === 1 ? reason : undefined;
}

interface Rate {
  label: string;
  /** Why each run that did not pass failed, as `run <k>: …`. */
  failures: string[];
  scores?: number[];
  location: string | undefined;
}

/** Reports how many of `repeat` runs passed, and fails the test below `passRate`. */
function holdRate(t: TestContext, rate: Rate, repeat: number, passRate: number): void {
  const passes = repeat - rate.failures.length;
  const share = passes / repeat;
  t.diagnostic(`${rate.label}: passed ${passes} of ${repeat} runs (${Math.round(share * 100)}%)${rate.scores ? `; ${spread(rate.scores)}` : ""}`);
  if (share < passRate) {
    const message = `${rate.label} passed in ${passes} of ${repeat} runs, below the pass rate ${passRate} (FLOW_PASS_RATE): ${rate.failures.join("; ")}`;
    throw new ScenarioFailure("scenario_failed", message, rate.location);
  }
}

/**
 * A scenario played `repeat` times, each run on a fresh app, to measure how steady a live flow is:
 * one test per turn reports its pass rate and the spread of its judge scores, and fails below
 * `passRate`. Each failed run leaves its own transcript (`<scenario>-run<k>-<kind>-failure.json`).
 */
export function describeRepeatedScenario(loaded: LoadedScenario, options: ScenarioSuiteOptions, repeat: number, passRate: number): void {
  describe(`${loaded.scenario.flowName}: ${loaded.name} × ${repeat}`, () => {
    let runs: PlayedRun[] = [];
    const parallel = parallelPlayOf(suiteConfigOf(loaded));
    // Played from now on, ahead of the suite's turn, when in parallel; each test still gets a failure.
    const ahead = parallel ? playRuns(loaded, options, repeat, parallel) : undefined;
    ahead?.catch(() => undefined);
    before(async () => {
      runs = await (ahead ?? playRuns(loaded, options, repeat, undefined));
    });
    loaded.scenario.turns.forEach((turn, index) => {
      const name = `turn ${index + 1} '${turn.label}'`;
      const location = scenarioLocation(loaded, index);
      test(`${index + 1}. ${turn.label}`, (t) => {
        const reports = runs.map((run) => run.turns[index]);
        const skipped = skippedInEveryRun(reports);
        if (skipped !== undefined) return t.skip(skipped);
        const failures = reports.flatMap((report, k) => (report?.outcome === "passed" ? [] : [`run ${k + 1}: ${why(report)}`]));
        holdRate(t, { label: name, failures, location }, repeat, passRate);
      });
      if (turn.expectedResponse === undefined) return;
      test(`${index + 1}. ${turn.label} · judge`, (t) => {
        const verdicts = runs.map((run) => judgeOf(run.turns[index]));
        const graded = verdicts.filter((check) => check && check.outcome !== "skipped");
        if (graded.length === 0) return t.skip(verdicts.find((check) => check?.message)?.message ?? "the turn was never graded");
        const failures = verdicts.flatMap((check, k) => (check?.outcome === "passed" ? [] : [`run ${k + 1}: ${check?.message ?? "not graded"}`]));
        const scores = graded.flatMap((check) => (check!.verdict ? [check!.verdict.score] : []));
        holdRate(t, { label: `the judge of ${name}`, failures, scores, location }, repeat, passRate);
      });
    });
    test("final state", (t) => {
      const skipped = skippedInEveryRun(runs.map((run) => run.final));
      if (skipped !== undefined) return t.skip(skipped);
      const failures = runs.flatMap((run, k) => (run.final?.outcome === "passed" ? [] : [`run ${k + 1}: ${run.final?.failure ?? run.final?.skipReason ?? "not reached"}`]));
      holdRate(t, { label: "the final state", failures, location: scenarioLocation(loaded) }, repeat, passRate);
    });
  });
}

/**
 * `FLOW_REPEAT` and `FLOW_PASS_RATE` of the suite's configuration (a scenario's env may set the pass
 * rate); with none, a bad environment, one run, which reports every problem.
 */
export function repeatOf(config: Config | undefined): { times: number; passRate: number } {
  return config ? { times: config.repeat, passRate: config.passRate } : { times: 1, passRate: 1 };
}
