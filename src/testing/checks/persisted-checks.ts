import { isDeepStrictEqual } from "node:util";
import type { SessionViewHead } from "./session-view.ts";
import { check, compared, failed, skipped, type Check } from "./check.ts";
import type { Answer } from "../answer/read-answer.ts";
import type { ScenarioTurn } from "../scenario/scenario.ts";
import { isSuccessStatus } from "../scenario/is-success-status.ts";

/**
 * The persisted contract: the session re-read from the store is on the expected flow, step and run
 * status, holds exactly one more turn than before, and agrees with what the answer claimed. After an
 * error answer, the stored session must be exactly as it was: the caller then passes the whole
 * session, conversation included, as it was before the turn and after it. Sessions read without a
 * turn count (no `turns`), or that do not say their flow, skip that check with `unknown`'s reason.
 * A turn a simulated user wrote expects no step and no run status: the stored step must be one of
 * the flow's `steps` (when they are known), and the run may have ended or not.
 */
export function persistedChecks(
  turn: ScenarioTurn,
  flowName: string,
  answer: Answer,
  stored: SessionViewHead | undefined,
  previous: SessionViewHead | undefined,
  where: string,
  session: string | undefined,
  unknown: { turns?: string | undefined; flow?: string | undefined; step?: string | undefined } = {},
  simulated?: { steps: readonly string[] | undefined },
): Check[] {
  if (!isSuccessStatus(turn.expectedStatus ?? 200)) return previous ? [unchangedCheck(previous, stored)] : [];
  if (session === undefined)
    return [failed("persisted", "stored", "the answer carries no session id, so the store could not be read")];
  if (!stored) return [failed("persisted", "stored", `session ${session} is not in ${where}`)];
  const head = simulated
    ? [flowCheck(flowName, stored, unknown.flow), stepOfFlowCheck(flowName, stored, simulated.steps)]
    : headChecks(turn, flowName, stored, unknown);
  return [...head, turnsCheck(stored, previous, unknown.turns), ...claimChecks(answer, stored)];
}

function flowCheck(flowName: string, stored: SessionViewHead, unknown: string | undefined): Check {
  return unknown === undefined
    ? compared(
        "persisted",
        "flow",
        stored.flow.name === flowName ? undefined : `expected flow ${flowName}, stored ${stored.flow.name}`,
        flowName,
        stored.flow.name,
      )
    : skipped("persisted", "flow", unknown);
}

/** The stored step is one of the flow's, when the flow's steps are known. */
function stepOfFlowCheck(flowName: string, stored: SessionViewHead, steps: readonly string[] | undefined): Check {
  const step = stored.flow.currentStep;
  if (!steps) return skipped("persisted", "step of the flow", `the steps of ${flowName} are not known here`);
  return compared(
    "persisted",
    "step of the flow",
    steps.includes(step) ? undefined : `stored step ${step} is not a step of ${flowName} (${steps.join(", ")})`,
    steps,
    step,
  );
}

/** The stored session is on the turn's flow, step and run status. */
function headChecks(
  turn: ScenarioTurn,
  flowName: string,
  stored: SessionViewHead,
  unknown: { turns?: string | undefined; flow?: string | undefined; step?: string | undefined },
): Check[] {
  const wantedStatus = turn.completed ? "completed" : "running";
  const state = `(runStatus ${stored.runStatus})`;
  return [
    flowCheck(flowName, stored, unknown.flow),
    unknown.step !== undefined
      ? skipped("persisted", "expectedActiveStep", unknown.step)
      : compared(
          "persisted",
          "expectedActiveStep",
          stored.flow.currentStep === turn.expectedActiveStep
            ? undefined
            : `expected active step ${turn.expectedActiveStep}, stored ${stored.flow.currentStep} ${state}`,
          turn.expectedActiveStep,
          stored.flow.currentStep,
        ),
    compared(
      "persisted",
      "completed",
      stored.runStatus === wantedStatus ? undefined : `expected runStatus ${wantedStatus}, stored ${stored.runStatus}`,
      wantedStatus,
      stored.runStatus,
    ),
  ];
}

/**
 * The store holds exactly one more turn than before. A session read without a count (a target that
 * keeps none) skips it, with the reader's reason: there is no number to compare.
 */
function turnsCheck(
  stored: SessionViewHead,
  previous: SessionViewHead | undefined,
  unknown: string | undefined,
): Check {
  if (stored.turns === undefined)
    return skipped(
      "persisted",
      "turns",
      unknown ?? "the sessions keep no count of turns, so the turn count is not checked",
    );
  const expected = (previous?.turns ?? 0) + 1;
  return compared(
    "persisted",
    "turns",
    stored.turns === expected ? undefined : `expected the store to hold ${expected} turns, it holds ${stored.turns}`,
    expected,
    stored.turns,
  );
}

/** After an error answer: the stored session is exactly as it was before the turn. */
function unchangedCheck(previous: SessionViewHead, stored: SessionViewHead | undefined): Check {
  const changed = Object.keys({ ...previous, ...stored }).filter(
    (key) => !isDeepStrictEqual(previous[key as keyof SessionViewHead], stored?.[key as keyof SessionViewHead]),
  );
  return check(
    "persisted",
    "unchanged",
    changed.length
      ? `the error answer changed the stored session: ${changed.join(", ")} differ from before the turn`
      : undefined,
  );
}

/** What the answer says of the session (step, run status, completed) agrees with the store. */
function claimChecks(answer: Answer, stored: SessionViewHead): Check[] {
  // A document answer (CSV) claims nothing about the session; a JSON one must tell the truth.
  if (!answer.json) return [];
  const json = answer.json;
  const claims: [string, unknown, unknown][] = [
    ["currentStep", json["currentStep"], stored.flow.currentStep],
    ["runStatus", json["runStatus"], stored.runStatus],
    ["completed", json["completed"], stored.runStatus === "completed"],
  ];
  const made = answer.claimsOnly ? claims.filter(([field]) => field in json) : claims;
  return made.map(([field, claimed, truth]) =>
    compared(
      "persisted",
      `answer's ${field}`,
      claimed === truth
        ? undefined
        : `the answer says ${field} ${JSON.stringify(claimed)} but the store has ${JSON.stringify(truth)}`,
      truth,
      claimed,
    ),
  );
}
