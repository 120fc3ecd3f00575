import { missing, proved, type ChecklistPoint } from "./checklist.ts";
import { fixedTurns, keptStep, passedCheck, where, type FlowEvidence, type PlayedTurn } from "./flow-evidence.ts";

const SESSION_CHECKS = ["session header", "session body", "session ids agree"];

/** 1: a conversation starts only after the target's GET /ai/flows listed its flow as the file expects. */
export function listedPoint({ flow, conversations }: FlowEvidence): ChecklistPoint {
  if (conversations.length === 0)
    return missing("1", `add a scenario for ${flow.name} (npm run new:flow writes one to start from)`);
  return proved(
    "1",
    `GET /ai/flows listed ${flow.name} before each of its ${conversations.length} conversation${conversations.length === 1 ? "" : "s"}`,
  );
}

/** 2: the first turn's answer carries the new session id in the body and the header, the same. */
export function firstAnswerPoint({ turns }: FlowEvidence): ChecklistPoint {
  const first = turns.find(
    (turn) => turn.number === 1 && SESSION_CHECKS.every((name) => passedCheck(turn, "transport", name)),
  );
  if (first) return proved("2", `${where(first)}: the session id in body and header, the same`);
  return missing("2", "add a first turn that starts a session (no session id sent) and is answered 200");
}

/**
 * What a turn leaves unasserted of its answer, stored step and run status. With `unprovable`, a
 * stored step or run status the scenario expects but its target cannot show (the check skipped,
 * saying why) is the target's gap, not the scenario's.
 */
function unasserted(turn: PlayedTurn, unprovable: boolean): string[] {
  const asserted = (name: string) =>
    passedCheck(turn, "persisted", name) !== undefined ||
    (unprovable &&
      turn.checks.some(
        (check) => check.contract === "persisted" && check.name === name && check.outcome === "skipped",
      ));
  // Any check of the answer's content counts: its text, a CSV's rows, or a judge's grade.
  const response = turn.checks.some(
    (check) =>
      check.outcome === "passed" &&
      ((check.contract === "expectation" && !check.name.startsWith("expectState")) || check.contract === "judge"),
  );
  const gaps = response ? [] : ["a check of the response (responseMustInclude, responseMatches, expectCsvRows)"];
  // An error answer has no step to move: the store is checked unchanged instead.
  if (passedCheck(turn, "transport", "error"))
    return passedCheck(turn, "persisted", "unchanged") ? gaps : [...gaps, "the stored session left unchanged"];
  if (!asserted("expectedActiveStep")) gaps.push("expectedActiveStep");
  if (!asserted("completed")) gaps.push("the run status (completed)");
  return gaps;
}

/**
 * 3: every played turn of a scenario's `turns` asserts its response, the stored step and the run status; `unprovable` for a
 * target of another kind, which may not show them all.
 */
export function everyTurnPoint(evidence: Pick<FlowEvidence, "turns">, unprovable = false): ChecklistPoint {
  const turns = fixedTurns(evidence.turns);
  const gaps = turns.flatMap((turn) => {
    const gap = unasserted(turn, unprovable);
    return gap.length ? [`${where(turn)}: add ${gap.join(", ")}`] : [];
  });
  if (turns.length === 0) return missing("3", "no turn of a scenario's `turns` was played");
  if (gaps.length)
    return missing(
      "3",
      `${gaps.slice(0, 3).join("; ")}${gaps.length > 3 ? `; and ${gaps.length - 3} more turns` : ""}`,
    );
  return proved("3", `all ${turns.length} turns checked the response, the stored step and the run status`);
}

/** 6: a later turn, sent with the stored session id, keeps that id and the step. */
export function resumedPoint(evidence: FlowEvidence): ChecklistPoint {
  const resumed = evidence.turns.find(
    (turn) => turn.number > 1 && passedCheck(turn, "transport", "session stable") && keptStep(turn, evidence.flow),
  );
  if (resumed) return proved("6", `${where(resumed)}: the same session id, still on ${resumed.stored!.step}`);
  return missing(
    "6",
    "add a turn after the first that stays on its step (e.g. a refused input) with expectedActiveStep",
  );
}

/** 7: a turn expects `completed: true`, and the store says `runStatus: "completed"`. */
export function completedPoint({ turns }: Pick<FlowEvidence, "turns">): ChecklistPoint {
  const last = turns.find(
    (turn) =>
      turn.stored?.runStatus === "completed" && passedCheck(turn, "persisted", "completed")?.expected === "completed",
  );
  if (last) return proved("7", `${where(last)}: answered completed, stored runStatus completed`);
  return missing("7", 'add the turn that ends the run, with "completed": true');
}
