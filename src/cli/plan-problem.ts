/**
 * Why a run stops before anything plays, as the planner finds it: the lines that say so and the
 * exit code, 1 when there is nothing to run. The command tells it to the reporters (`run:problem`).
 */
export interface PlanProblem {
  readonly problem: readonly string[];
  readonly exitCode: number;
}

export function isPlanProblem(value: object): value is PlanProblem {
  return "problem" in value;
}
