import type { TestContext } from "node:test";
import { ScenarioFailure } from "./scenario-failure.ts";

/** What one run gave a test: a turn's, a judge's or the final state's outcome. */
export interface RunOutcome {
  outcome: "passed" | "failed" | "skipped";
  /** Why it failed or was skipped. */
  why?: string | undefined;
  /** The judge's score, when it graded the turn. */
  score?: number | undefined;
  /** A failure as the test states it when it stands for this run alone, when not `why`. */
  failure?: string | undefined;
  /** Where that failure points (`file:line`, else the scenario's name), when not the test's own place. */
  location?: string | undefined;
  /** A subtest of the test has reported this run's failure already. */
  shown?: boolean;
}

export interface RepeatRate {
  label: string;
  location: string | undefined;
  /** The pass rate a test must reach over the runs (`FLOW_PASS_RATE`). */
  passRate: number;
  /** Whether the judge's scores are worth reporting (the test is a judge's). */
  scored?: boolean;
  /** Said after a single run's failure: where its transcript is. */
  transcript?: string;
}

/**
 * A test's verdict over its runs, the same for one run or several. One run is the test: skipped
 * with its reason, or failed with its own failure where it points. Several are held to the pass
 * rate (`holdRate`), unless every run skipped it alike (a judge's: unless no run was graded).
 */
export function verdictOverRuns(t: TestContext, outcomes: readonly RunOutcome[], rate: RepeatRate): void {
  if (outcomes.length === 1) return oneRun(t, outcomes[0]!, rate);
  const skipped = rate.scored ? neverGraded(outcomes) : skippedInEveryRun(outcomes);
  if (skipped !== undefined) return t.skip(skipped);
  holdRate(t, outcomes, rate);
}

function oneRun(t: TestContext, run: RunOutcome, rate: RepeatRate): void {
  if (run.outcome === "skipped") return t.skip(run.why);
  if (run.outcome === "passed" || run.shown) return;
  const message = `${run.failure ?? run.why ?? "failed"}${rate.transcript ?? ""}`;
  throw new ScenarioFailure("scenario_failed", message, run.location ?? rate.location);
}

/** The first reason, when no run was graded. */
function neverGraded(outcomes: readonly RunOutcome[]): string | undefined {
  if (outcomes.some((each) => each.outcome !== "skipped")) return undefined;
  return outcomes.find((each) => each.why)?.why ?? "the turn was never graded";
}

function spread(scores: number[]): string {
  if (scores.length === 0) return "no judge scores";
  const sorted = [...scores].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return `judge scores min ${sorted[0]!.toFixed(2)}, median ${median.toFixed(2)}, max ${sorted.at(-1)!.toFixed(2)}`;
}

/** The one reason every run skipped this, if they all did for the same reason: the test is then skipped too. */
function skippedInEveryRun(outcomes: readonly RunOutcome[]): string | undefined {
  const reasons = new Set(outcomes.map((each) => (each.outcome === "skipped" ? (each.why ?? "") : undefined)));
  const [reason] = reasons;
  return reasons.size === 1 ? reason : undefined;
}

/**
 * A test over several runs: reports how many of them passed (and the spread of the judge's scores),
 * and fails below `passRate`, with each run's reason. A run that skipped counts as not passed: it
 * was skipped after a failure, or never started.
 */
function holdRate(t: TestContext, outcomes: readonly RunOutcome[], rate: RepeatRate): void {
  const failures = outcomes.flatMap((each, k) =>
    each.outcome === "passed"
      ? []
      : [`run ${k + 1}: ${each.outcome === "skipped" ? `skipped: ${each.why ?? ""}` : (each.why ?? "failed")}`],
  );
  const runs = outcomes.length;
  const passes = runs - failures.length;
  const share = passes / runs;
  const scores = outcomes.flatMap((each) => (each.score === undefined ? [] : [each.score]));
  t.diagnostic(
    `${rate.label}: passed ${passes} of ${runs} runs (${Math.round(share * 100)}%)${rate.scored ? `; ${spread(scores)}` : ""}`,
  );
  if (share < rate.passRate) {
    const message = `${rate.label} passed in ${passes} of ${runs} runs, below the pass rate ${rate.passRate} (FLOW_PASS_RATE): ${failures.join("; ")}`;
    throw new ScenarioFailure("scenario_failed", message, rate.location);
  }
}
