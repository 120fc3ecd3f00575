import { missing, notApplicable, proved, type ChecklistPoint } from "./checklist.ts";
import { keptStep, where, type FlowEvidence } from "./flow-evidence.ts";

const FINAL_KINDS = [
  ["finalState.", "finalState"],
  ["finalMemory.", "finalMemory"],
  ["finalExecution", "finalExecution"],
] as const;

/** 8: some scenario's final checks compared the state, a memory namespace and the execution log, and passed. */
export function finalPoint({ finalChecks }: FlowEvidence): ChecklistPoint {
  const seen = (prefix: string) => finalChecks.some((check) => check.outcome === "passed" && check.name.startsWith(prefix));
  const absent = FINAL_KINDS.filter(([prefix]) => !seen(prefix)).map(([, key]) => key);
  if (absent.length) return missing("8", `add ${absent.join(", ")} to a scenario`);
  return proved("8", "finalState, finalMemory and finalExecution passed");
}

/** 9: a child flow ran on a turn that kept the parent's cursor, and the children were compared at the end. */
export function childrenPoint(evidence: FlowEvidence): ChecklistPoint {
  if (evidence.flow.children.length === 0) return notApplicable("9", "the flow has no child flows");
  const names = evidence.flow.children.map((child) => child.name);
  const kept = evidence.turns.find((turn) => keptStep(turn, evidence.flow) && turn.changed?.execution?.some((entry) => entry.kind === "child"));
  const compared = evidence.finalChecks.some((check) => check.name === "finalChildren" && check.outcome === "passed");
  const gaps = [...(kept ? [] : [`a turn where ${names.join(" or ")} runs and the cursor stays (expectedActiveStep)`]), ...(compared ? [] : ["finalChildren with the child runs' state"])];
  if (gaps.length) return missing("9", `add ${gaps.join(" and ")}`);
  return proved("9", `${where(kept!)} ran a child and kept the cursor; finalChildren passed`);
}

function isJson(contentType: string): boolean {
  return /^application\/json\b/.test(contentType);
}

/** 11: every answer in another content type (a renderer's, an event stream) had its body checked, not only its header. */
export function contentTypesPoint(evidence: FlowEvidence): ChecklistPoint {
  const others = evidence.turns.filter((turn) => turn.answer?.contentType && !isJson(turn.answer.contentType));
  const declared = Object.keys(evidence.flow.renderers).filter((type) => !others.some((turn) => turn.answer!.contentType!.startsWith(type)));
  const unchecked = others.filter((turn) => !turn.checks.some((check) => check.outcome === "passed" && check.contract === "expectation" && !check.name.startsWith("expectState")));
  if (others.length === 0 && declared.length === 0) return notApplicable("11", "no turn asked for another content type, and the flow has no renderers");
  const gaps = [...unchecked.map((turn) => `${where(turn)} (${turn.answer!.contentType}): add responseMustInclude or expectCsvRows`), ...declared.map((type) => `a turn with "accept": "${type}" checking its body`)];
  if (gaps.length) return missing("11", `add ${gaps.join("; ")}`);
  return proved("11", [...new Set(others.map((turn) => turn.answer!.contentType!.split(";")[0]))].join(", ") + ": bodies checked");
}

