import type { CalledTool } from "../checks/called-tool.ts";
import type { FlowCoverage } from "../report/flow-coverage.ts";
import { TOOL_CALLS_UNREPORTED } from "../target/target-conversation.ts";
import { missing, notApplicable, proved, type ChecklistPoint } from "./checklist.ts";
import { passedCheck, where, type PlayedTurn } from "./flow-evidence.ts";

// Its outline lists no tools: with none called, there is no tool known to prove a point on.
const NONE_CALLED =
  "its answers report tool calls, but no turn called a tool, so no tool of it is known (a target lists none)";

/** Why the tool points cannot be judged on these turns: their answers reported no calls, or no call at all. */
function noCalls(id: string, turns: readonly PlayedTurn[]): ChecklistPoint | undefined {
  if (!turns.some((turn) => turn.toolCalls !== undefined)) return notApplicable(id, TOOL_CALLS_UNREPORTED);
  if (!turns.some((turn) => (turn.toolCalls ?? []).length > 0)) return notApplicable(id, NONE_CALLED);
  return undefined;
}

/** The step the turn moved from and to, when its stored session says it moved: a session's first turn cannot say where it started. */
function moved(turn: PlayedTurn): { from: string; to: string } | undefined {
  const step = turn.changed?.step;
  return step && step.from !== null && step.from !== step.to ? { from: step.from, to: step.to } : undefined;
}

/** Whether the turn's stored session stayed on its step after its first turn, and the turn asserted the step. */
function stayed(turn: PlayedTurn): boolean {
  return (
    turn.stored !== undefined &&
    turn.changed !== undefined &&
    turn.changed.step === undefined &&
    passedCheck(turn, "persisted", "expectedActiveStep") !== undefined
  );
}

const errorOf = (call: CalledTool) => call.status === "failed";

/** Why points 4 and 5 cannot be judged on these turns, if they cannot: no call reported, or no stored step to see stay or move. */
function unjudgeable(id: "4" | "5", turns: readonly PlayedTurn[]): ChecklistPoint | undefined {
  const none = noCalls(id, turns);
  if (none) return none;
  if (!turns.some((turn) => turn.stored !== undefined))
    return notApplicable(
      id,
      "its target's state is not read (an http entry's state.path), so no turn is known to have stayed on its step or moved on",
    );
  return undefined;
}

/** 4, on a target of another kind: a call whose output is an error, on a turn whose step stayed (asserted). */
export function foreignRefusesPoint(turns: readonly PlayedTurn[]): ChecklistPoint {
  const cannot = unjudgeable("4", turns);
  if (cannot) return cannot;
  const refusal = turns.find((turn) => stayed(turn) && (turn.toolCalls ?? []).some(errorOf));
  if (!refusal)
    return missing(
      "4",
      "add a turn whose input a tool refuses (its output an error) and whose step stays, expecting the same step",
    );
  const call = refusal.toolCalls!.find(errorOf)!;
  return proved("4", `${call.name} failed and the step stayed: ${where(refusal)}`);
}

/** 5, on a target of another kind: a call on a turn that moved on (asserted) and stored state. */
export function foreignAdvancesPoint(turns: readonly PlayedTurn[]): ChecklistPoint {
  const cannot = unjudgeable("5", turns);
  if (cannot) return cannot;
  const saving = turns.find(
    (turn) =>
      moved(turn) !== undefined &&
      (turn.toolCalls ?? []).length > 0 &&
      turn.changed?.state !== undefined &&
      passedCheck(turn, "persisted", "expectedActiveStep") !== undefined,
  );
  if (!saving)
    return missing("5", "add a turn whose valid input a tool saves, moving on to the next step, expecting that step");
  const { from, to } = moved(saving)!;
  const calls = [...new Set(saving.toolCalls!.map((call) => call.name))].join(", ");
  return proved("5", `${calls} on ${where(saving)}, which moved ${from} → ${to} and stored state`);
}

/** tools, on a target of another kind: the tools its answers reported called (its outline lists none), and how their calls ended. */
export function foreignToolsPoint(
  turns: readonly PlayedTurn[],
  entry: FlowCoverage[string] | undefined,
): ChecklistPoint {
  const none = noCalls("tools", turns);
  if (none) return none;
  const tools = Object.entries(entry?.tools ?? {});
  return proved(
    "tools",
    `${tools.length} tool${tools.length === 1 ? "" : "s"} called: ` +
      tools.map(([tool, ended]) => `${tool} (${ended.join(", ")})`).join("; "),
  );
}
