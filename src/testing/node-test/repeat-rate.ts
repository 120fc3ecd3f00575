import type { TestContext } from "node:test";
import { ScenarioFailure } from "./scenario-failure.ts";

/** What one run gave a test: a turn's, a judge's or the final state's outcome. */
export interface RunOutcome {
  outcome: "passed" | "failed" | "skipped";
  /** Why it failed or was skipped. */
  why?: string | undefined;
  /** The judge's score, when it graded the turn. */
  score?: number | undefined;
}

export interface RepeatRate {
  label: string;
  location: string | undefined;
  /** The pass rate a test must reach over the runs (`FLOW_PASS_RATE`). */
  passRate: number;
  /** Whether the judge's scores are worth reporting (the test is a judge's). */
  scored?: boolean;
}

function spread(scores: number[]): string {
  if (scores.length === 0) return "no judge scores";
  const sorted = [...scores].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return `judge scores min ${sorted[0]!.toFixed(2)}, median ${median.toFixed(2)}, max ${sorted.at(-1)!.toFixed(2)}`;
}

/** The one reason every run skipped this, if they all did for the same reason: the test is then skipped too. */
export function skippedInEveryRun(outcomes: readonly RunOutcome[]): string | undefined {
  const reasons = new Set(outcomes.map((each) => (each.outcome === "skipped" ? (each.why ?? "") : undefined)));
  const [reason] = reasons;
  return reasons.size === 1 ? reason : undefined;
}

/**
 * A test over several runs: reports how many of them passed (and the spread of the judge's scores),
 * and fails below `passRate`, with each run's reason. A run that skipped counts as not passed: it
 * was skipped after a failure, or never started.
 */
export function holdRate(t: TestContext, outcomes: readonly RunOutcome[], rate: RepeatRate): void {
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
