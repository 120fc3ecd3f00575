import type { Answer } from "../answer/read-answer.ts";
import type { Check } from "../checks/check.ts";
import type { TurnReport } from "../checks/turn-report.ts";
import type { Scenario, ScenarioTurn } from "../scenario/scenario.ts";

/**
 * Grades `expectedResponse`; without one, judged checks are reported as skipped, never passed.
 * With `whole`, the turn's `expectedResponse` is a criterion over the whole conversation
 * (`success.judge`): `history` and the last answer are graded together, not the last answer alone.
 */
export type Judge = (request: {
  scenario: Scenario;
  turn: ScenarioTurn;
  answer: Answer;
  history: TurnReport[];
  whole?: boolean;
}) => Promise<Check>;
