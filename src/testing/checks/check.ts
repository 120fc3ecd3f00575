/**
 * Which contract a check belongs to; `judge` checks are graded by a model, `answer` checks hold
 * the answer's own claims to the turn when the store cannot be read to check what was stored, and
 * `success` checks hold a simulated conversation to its scenario's `success`.
 */
export type Contract =
  | "transport"
  | "persisted"
  | "answer"
  | "expectation"
  | "domain"
  | "judge"
  | "cassette"
  | "success";

/** What the judge must answer, as JSON; a judged check carries it. */
export interface Verdict {
  pass: boolean;
  /** 0 to 1: how fully the answer meets the expectation. */
  score: number;
  reason: string;
  missing: string[];
  contradictions: string[];
}

export interface Check {
  contract: Contract;
  /** What was checked, e.g. `status`, `expectedActiveStep`, `responseMustInclude[0]`. */
  name: string;
  outcome: "passed" | "failed" | "skipped";
  /** For a failure, what was expected and what was found; for a skip, why. */
  message?: string;
  /**
   * For a judge check that got a verdict: the verdict and the score it needed. With more than one
   * sample (`JUDGE_SAMPLES`), the majority's verdict and the median score, each sample, and whether
   * they disagreed.
   */
  verdict?: Verdict & {
    minScore: number;
    samples?: { pass: boolean; score: number; reason: string }[];
    unstable?: boolean;
  };
  /** What the check wanted and what it found, where it compares two values (a report shows them side by side). */
  expected?: unknown;
  actual?: unknown;
}

export function passed(contract: Contract, name: string): Check {
  return { contract, name, outcome: "passed" };
}

export function failed(contract: Contract, name: string, message: string): Check {
  return { contract, name, outcome: "failed", message };
}

export function skipped(contract: Contract, name: string, why: string): Check {
  return { contract, name, outcome: "skipped", message: why };
}

/** Passed when `problem` is undefined, else failed with it. */
export function check(contract: Contract, name: string, problem: string | undefined): Check {
  return problem === undefined ? passed(contract, name) : failed(contract, name, problem);
}

/** `check`, carrying the value it wanted and the value it found, passed or not. */
export function compared(
  contract: Contract,
  name: string,
  problem: string | undefined,
  expected: unknown,
  actual: unknown,
): Check {
  // Literals of one shape, not a spread: every turn makes a score of these.
  return problem === undefined
    ? { contract, name, outcome: "passed", expected, actual }
    : { contract, name, outcome: "failed", message: problem, expected, actual };
}
