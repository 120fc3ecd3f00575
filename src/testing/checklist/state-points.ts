import type { ExecutionEntry } from "../../engine/session-document.ts";
import { missing, notApplicable, proved, type ChecklistPoint } from "./checklist.ts";
import {
  fixedTurns,
  keptStep,
  movedFrom,
  passedCheck,
  where,
  type FlowEvidence,
  type PlayedTurn,
} from "./flow-evidence.ts";

const SAVING = new Set(["advance", "complete"]);

/** `Step.tool` of every tool the flow declares, in step order. */
export function toolsOf({ flow }: FlowEvidence): string[] {
  return flow.stepNames.flatMap((step) => flow.tools(step).map((tool) => `${step}.${tool.name}`));
}

/** The tools that take input, so can be given bad input: a tool without parameters has none to refuse. */
function takingInput({ flow }: FlowEvidence): string[] {
  return flow.stepNames.flatMap((step) =>
    flow
      .tools(step)
      .filter((tool) => Object.keys(propertiesOf(tool.parameters)).length > 0)
      .map((tool) => `${step}.${tool.name}`),
  );
}

function propertiesOf(schema: unknown): Record<string, unknown> {
  const properties = (schema as { properties?: unknown } | undefined)?.properties;
  return properties !== null && typeof properties === "object" ? (properties as Record<string, unknown>) : {};
}

function calls(turn: PlayedTurn, tool: string): ExecutionEntry[] {
  return (turn.changed?.execution ?? []).filter(
    (entry) => entry.kind === "tool" && `${entry.step}.${entry.name}` === tool,
  );
}

/** The turn where `tool` returned stay and the cursor stayed where the turn expected it. */
export function refusalOf(evidence: FlowEvidence, tool: string): PlayedTurn | undefined {
  return evidence.turns.find(
    (turn) => keptStep(turn, evidence.flow) && calls(turn, tool).some((entry) => entry.outcome === "stay"),
  );
}

/** The turn where `tool` advanced or completed the run, or stayed having saved its step's state. */
function savingOf(evidence: FlowEvidence, tool: string): PlayedTurn | undefined {
  return evidence.turns.find((turn) =>
    calls(turn, tool).some(
      (entry) => SAVING.has(entry.outcome) || (entry.outcome === "stay" && turn.changed?.state?.[entry.step]),
    ),
  );
}

/** A child flow's tools have no turns of their own: their outcomes come from the coverage of its parent's sessions. */
function childOutcomes(evidence: FlowEvidence, tool: string): string[] {
  return evidence.coverage?.tools[tool] ?? [];
}

/** 4: every tool seen refusing input with `stay` on a turn that asserted the cursor did not move. */
export function refusesPoint(evidence: FlowEvidence, child: boolean): ChecklistPoint {
  const tools = takingInput(evidence);
  if (tools.length === 0) return notApplicable("4", "the flow has no tools that take input");
  const never = tools.filter((tool) =>
    child ? !childOutcomes(evidence, tool).includes("stay") : !refusalOf(evidence, tool),
  );
  if (never.length)
    return missing("4", `add a turn whose input ${never.join(", ")} refuses (stay), expecting the same step`);
  if (child) return proved("4", `${tools.join(", ")} returned stay in a child run`);
  return proved("4", tools.map((tool) => `${tool}: ${where(refusalOf(evidence, tool)!)}`).join("; "));
}

/** tools: every tool seen both saving (or advancing) and refusing. */
export function toolsPoint(evidence: FlowEvidence, child: boolean): ChecklistPoint {
  const tools = toolsOf(evidence);
  if (tools.length === 0) return notApplicable("tools", "the flow has no tools");
  const saves = (tool: string) =>
    child
      ? childOutcomes(evidence, tool).some((outcome) => SAVING.has(outcome))
      : savingOf(evidence, tool) !== undefined;
  const refuses = (tool: string) =>
    child ? childOutcomes(evidence, tool).includes("stay") : refusalOf(evidence, tool) !== undefined;
  const refusing = new Set(takingInput(evidence));
  const gaps = tools.flatMap((tool) => [
    ...(saves(tool) ? [] : [`${tool} never saved or advanced`]),
    ...(refuses(tool) || !refusing.has(tool) ? [] : [`${tool} never refused with stay`]),
  ]);
  if (gaps.length) return missing("tools", `${gaps.join("; ")}: add the turns`);
  const inputless = tools.filter((tool) => !refusing.has(tool));
  return proved(
    "tools",
    `all ${tools.length} tools saved, and those taking input refused${inputless.length ? ` (${inputless.join(", ")} take none)` : ""}`,
  );
}

/** 5: every fixed turn that moved the cursor asserted where to, and a turn that saved state asserted it on the step that owns it. */
export function advancesPoint(evidence: FlowEvidence): ChecklistPoint {
  const moves = fixedTurns(evidence.turns).filter((turn) => movedFrom(turn, evidence.flow) !== undefined);
  if (moves.length === 0)
    return evidence.flow.stepNames.length > 1
      ? missing("5", "add a turn whose valid input moves to the next step")
      : notApplicable("5", "the flow has one step");
  const unasserted = moves.filter((turn) => !passedCheck(turn, "persisted", "expectedActiveStep"));
  if (unasserted.length) return missing("5", `${unasserted.map(where).join("; ")}: add expectedActiveStep`);
  const owned = (turn: PlayedTurn) =>
    Object.keys(turn.changed?.state ?? {}).find((step) => passedCheck(turn, "expectation", `expectState.${step}`));
  const saved = evidence.turns.find((turn) => owned(turn) !== undefined);
  if (!saved) return missing("5", "add expectState for the step that saves, on a turn whose input it saves");
  return proved(
    "5",
    `${moves.length} move${moves.length === 1 ? "" : "s"} asserted; ${where(saved)} saved on ${owned(saved)}, asserted`,
  );
}
