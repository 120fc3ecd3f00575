import type { Mutant } from "./mutant.ts";
import type { FailingScenario, StrengthResult } from "./measure-strength.ts";
import type { MutantVerdict } from "./mutant-verdict.ts";
import type { FlowStrength } from "./strength-score.ts";

/** The name of a strength run's results, beside a test run's run-results.json. */
export const STRENGTH_RESULTS = "strength-results.json";

/** A scenario file the run could not plant a mutant in, and why. */
export interface NotMeasurable {
  file: string;
  why: string;
}

/** One mutant: where it applies (no step for a change to the flow's rendering or stream) and its verdict (what killed it, or what its survival let through). */
export type MutantResult = {
  id: string;
  flow: string;
  step?: string;
  change: Mutant["change"]["kind"];
} & MutantVerdict;

/**
 * `test/.tmp/strength-results.json`: one `flowcheck strength` run, the one source the report
 * page's strength section reads. The scenarios failing unmutated are listed apart: they were left out.
 */
export interface StrengthResults {
  strength: typeof STRENGTH_RESULTS_VERSION;
  startedAt: string;
  /** The whole run's wall time. */
  millis: number;
  scores: FlowStrength[];
  mutants: MutantResult[];
  /** The scenarios every mutant was played against where it reached them. */
  scenarios: string[];
  failing: FailingScenario[];
  notMeasurable: NotMeasurable[];
}

export const STRENGTH_RESULTS_VERSION = 1;

/** `result` as the results file holds it, its run having started at `startedAt` and lasted `millis`. */
export function strengthResultsOf(
  result: StrengthResult,
  run: { startedAt: string; millis: number; notMeasurable: NotMeasurable[] },
): StrengthResults {
  return {
    strength: STRENGTH_RESULTS_VERSION,
    ...run,
    scores: result.scores,
    mutants: result.judged.map(({ mutant, verdict }) => ({
      id: mutant.id,
      flow: mutant.flow,
      ...("step" in mutant ? { step: mutant.step } : {}),
      change: mutant.change.kind,
      ...verdict,
    })),
    scenarios: result.scenarios,
    failing: result.failing,
  };
}
