/**
 * Why a run stops before anything plays, as the command tells it: the lines it prints (on stderr
 * unless the exit code is 0) and the exit code, 1 when there is nothing to run.
 */
export interface PlanProblem {
  readonly problem: readonly string[];
  readonly exitCode: number;
}

export function isPlanProblem(value: object): value is PlanProblem {
  return "problem" in value;
}
