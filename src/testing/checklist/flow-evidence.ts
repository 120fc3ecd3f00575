import type { FlowDefinition } from "../../engine/flow.ts";
import type { Check } from "../checks/check.ts";
import type { FlowCoverage } from "../report/flow-coverage.ts";
import type { ConversationResult, TurnResult } from "../report/run-results.ts";

/** A played turn, with where it was played, for a point's proof. */
export interface PlayedTurn extends TurnResult {
  conversation: string;
}

/** What a run holds of one flow: its conversations that ran, their played turns and final checks, its coverage. */
export interface FlowEvidence {
  flow: FlowDefinition;
  conversations: ConversationResult[];
  turns: PlayedTurn[];
  finalChecks: Check[];
  coverage: FlowCoverage[string] | undefined;
}

export function evidenceOf(
  flow: FlowDefinition,
  conversations: readonly ConversationResult[],
  coverage: FlowCoverage,
): FlowEvidence {
  const ran = conversations.filter((conversation) => conversation.ran && conversation.flowName === flow.name);
  return {
    flow,
    conversations: ran,
    turns: playedTurns(ran),
    finalChecks: ran.flatMap((conversation) => conversation.final?.checks ?? []),
    coverage: coverage[flow.name],
  };
}

/** The turns of `conversations` that were played, each with its conversation's name. */
export function playedTurns(conversations: readonly ConversationResult[]): PlayedTurn[] {
  return conversations.flatMap((conversation) =>
    conversation.turns
      .filter((turn) => turn.outcome !== "skipped")
      .map((turn) => ({ ...turn, conversation: conversation.name })),
  );
}

/**
 * The turns a scenario gives (its `turns`): a simulated user's turns carry no expectations by design, their
 * conversation's `success` grades them, so the points asking for expectations skip them.
 */
export function fixedTurns<T extends Pick<TurnResult, "simulated">>(turns: readonly T[]): T[] {
  return turns.filter((turn) => turn.simulated === undefined);
}

/** Whether the turn has a passed check of that contract and name (a name ending in `.` or `[` matches by prefix). */
export function passedCheck(
  turn: Pick<TurnResult, "checks">,
  contract: Check["contract"],
  name: string,
): Check | undefined {
  const prefix = name.endsWith(".") || name.endsWith("[");
  return turn.checks.find(
    (check) =>
      check.contract === contract &&
      check.outcome === "passed" &&
      (prefix ? check.name.startsWith(name) : check.name === name),
  );
}

/** `basic-flow` turn 3 'two cities': where a proof was found. */
export function where(turn: PlayedTurn): string {
  return `${turn.conversation} turn ${turn.number} '${turn.label}'`;
}

/** The step the turn moved the cursor from, if it moved it: a session's first turn starts on the flow's first step. */
export function movedFrom(turn: TurnResult, flow: FlowDefinition): string | undefined {
  const step = turn.changed?.step;
  if (!step) return undefined;
  const from = step.from ?? flow.firstStep;
  return step.to === from ? undefined : from;
}

/** Whether the turn left the cursor where it was, and asserted so. */
export function keptStep(turn: TurnResult, flow: FlowDefinition): boolean {
  return (
    turn.stored !== undefined &&
    movedFrom(turn, flow) === undefined &&
    passedCheck(turn, "persisted", "expectedActiveStep") !== undefined
  );
}
