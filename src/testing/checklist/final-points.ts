import { missing, notApplicable, proved, type ChecklistPoint } from "./checklist.ts";
import { movedFrom, passedCheck, where, type FlowEvidence, type PlayedTurn } from "./flow-evidence.ts";

const FINAL_KINDS = [
  ["finalState.", "finalState"],
  ["finalMemory.", "finalMemory"],
  ["finalExecution", "finalExecution"],
] as const;

/** 8: some scenario's final checks compared the state, a memory namespace and the execution log, and passed. */
export function finalPoint({ finalChecks }: FlowEvidence): ChecklistPoint {
  const seen = (prefix: string) =>
    finalChecks.some((check) => check.outcome === "passed" && check.name.startsWith(prefix));
  const absent = FINAL_KINDS.filter(([prefix]) => !seen(prefix)).map(([, key]) => key);
  if (absent.length) return missing("8", `add ${absent.join(", ")} to a scenario`);
  return proved("8", "finalState, finalMemory and finalExecution passed");
}

/**
 * Whether a turn that ran a child asserted the parent's step, and the child did not move it: the
 * cursor stayed, or moved by an `advance` of the parent's own tool in the same turn.
 */
function childKeptCursor(turn: PlayedTurn, evidence: FlowEvidence): boolean {
  const execution = turn.changed?.execution ?? [];
  if (!execution.some((entry) => entry.kind === "child") || !passedCheck(turn, "persisted", "expectedActiveStep"))
    return false;
  return (
    movedFrom(turn, evidence.flow) === undefined ||
    execution.some((entry) => entry.kind === "tool" && entry.outcome === "advance" && entry.to === turn.stored?.step)
  );
}

/**
 * 9: a child flow ran on an asserted turn without moving the parent's cursor, and the child runs (their state)
 * were compared at the end.
 */
export function childrenPoint(evidence: FlowEvidence): ChecklistPoint {
  if (evidence.flow.children.length === 0) return notApplicable("9", "the flow has no child flows");
  const names = evidence.flow.children.map((child) => child.name);
  const ran = evidence.turns.find((turn) => childKeptCursor(turn, evidence));
  const compared = evidence.finalChecks.some((check) => check.name === "finalChildren" && check.outcome === "passed");
  const gaps = [
    ...(ran ? [] : [`a turn where ${names.join(" or ")} runs, with expectedActiveStep`]),
    ...(compared ? [] : ["finalChildren with the child runs' state"]),
  ];
  if (gaps.length) return missing("9", `add ${gaps.join(" and ")}`);
  return proved("9", `${where(ran!)} ran a child, which left the cursor to the parent's tools; finalChildren passed`);
}

function isJson(contentType: string): boolean {
  return /^application\/json\b/.test(contentType);
}

/** 11: every answer in another content type (a renderer's, an event stream) had its body checked, not only its header. */
export function contentTypesPoint(evidence: FlowEvidence): ChecklistPoint {
  const others = evidence.turns.filter((turn) => turn.answer?.contentType && !isJson(turn.answer.contentType));
  const declared = Object.keys(evidence.flow.renderers).filter(
    (type) => !others.some((turn) => turn.answer!.contentType!.startsWith(type)),
  );
  const unchecked = others.filter(
    (turn) =>
      !turn.checks.some(
        (check) =>
          check.outcome === "passed" && check.contract === "expectation" && !check.name.startsWith("expectState"),
      ),
  );
  if (others.length === 0 && declared.length === 0)
    return notApplicable("11", "no turn asked for another content type, and the flow has no renderers");
  const gaps = [
    ...unchecked.map(
      (turn) => `${where(turn)} (${turn.answer!.contentType}): add responseMustInclude or expectCsvRows`,
    ),
    ...declared.map((type) => `a turn with "accept": "${type}" checking its body`),
  ];
  if (gaps.length) return missing("11", `add ${gaps.join("; ")}`);
  return proved(
    "11",
    [...new Set(others.map((turn) => turn.answer!.contentType!.split(";")[0]))].join(", ") + ": bodies checked",
  );
}
