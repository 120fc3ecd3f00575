import type { Answer } from "../answer/read-answer.ts";
import type { Check } from "../checks/check.ts";
import type { TurnReport } from "../checks/turn-report.ts";
import type { Scenario, ScenarioTurn } from "../scenario/scenario.ts";

/** Grades `expectedResponse`; without one, judged checks are reported as skipped, never passed. */
export type Judge = (request: {
  scenario: Scenario;
  turn: ScenarioTurn;
  answer: Answer;
  history: TurnReport[];
}) => Promise<Check>;
