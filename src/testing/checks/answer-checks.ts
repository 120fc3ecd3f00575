import { compared, skipped, type Check } from "./check.ts";
import type { Answer } from "../answer/read-answer.ts";
import type { ScenarioTurn } from "../scenario/scenario.ts";
import { isSuccessStatus } from "../scenario/is-success-status.ts";

function stepClaim(claimed: unknown): string {
  if (typeof claimed === "string") return `it is on ${claimed}`;
  return claimed === undefined ? "no step: it has no currentStep" : `currentStep ${JSON.stringify(claimed)}`;
}

/**
 * The answer contract, for a target whose store cannot be read: the answer's own `currentStep`,
 * `runStatus` and `completed` against the turn's `expectedActiveStep` and `completed`. This is what
 * the server said, not what it stored; when the store can be read the persisted contract compares
 * the answer with it instead. An error answer claims no step, so it has nothing to check here.
 *
 * @example answerChecks({ label: "two cities", input: "LA, NYC", expectedActiveStep: "WeatherStep" }, answer)
 * // → [failed("answer", "currentStep", "the answer says it is on AddressStep (runStatus running); the turn expects WeatherStep"), …]
 */
export function answerChecks(turn: ScenarioTurn, answer: Answer): Check[] {
  if (!isSuccessStatus(turn.expectedStatus ?? 200)) return [];
  const json = answer.json;
  if (!json)
    return [
      skipped(
        "answer",
        "claims",
        `the ${answer.mediaType || "untyped"} answer carries no JSON, so it claims no step, run status or completion`,
      ),
    ];

  const checks = claimChecks(turn, json);
  // A target of another kind's answer claims only some of these: what it does not claim is not checked, saying so.
  if (!answer.claimsOnly) return checks;
  return checks.map((check) =>
    check.name in json
      ? check
      : skipped("answer", check.name, `the answer claims no ${check.name}, and the store cannot be read to check it`),
  );
}

/** The answer's `currentStep`, `runStatus` and `completed` against what the turn expects of them. */
function claimChecks(turn: ScenarioTurn, json: Record<string, unknown>): Check[] {
  const step = stepClaim(json["currentStep"]);
  const where = typeof json["currentStep"] === "string" ? ` (on ${json["currentStep"]})` : "";
  const completed = turn.completed ?? false;
  const wantedStatus = completed ? "completed" : "running";
  return [
    compared(
      "answer",
      "currentStep",
      json["currentStep"] === turn.expectedActiveStep
        ? undefined
        : `the answer says ${step} (runStatus ${String(json["runStatus"])}); the turn expects ${turn.expectedActiveStep}`,
      turn.expectedActiveStep,
      json["currentStep"],
    ),
    compared(
      "answer",
      "runStatus",
      json["runStatus"] === wantedStatus
        ? undefined
        : `the answer says runStatus ${JSON.stringify(json["runStatus"])}${where}; ` +
            `the turn expects ${wantedStatus}, as its completed is ${completed}`,
      wantedStatus,
      json["runStatus"],
    ),
    compared(
      "answer",
      "completed",
      json["completed"] === completed
        ? undefined
        : `the answer says completed ${JSON.stringify(json["completed"])}${where}; the turn expects completed ${completed}`,
      completed,
      json["completed"],
    ),
  ];
}
