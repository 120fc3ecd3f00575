import type { FlowCoverage } from "../report/flow-coverage.ts";
import type { RunResults } from "../report/run-results.ts";
import { missing, notApplicable, proved, type ChecklistPoint, type FlowChecklist } from "./checklist.ts";

// What a target of another kind cannot show: our engine's listing, tool log, restarts, memory,
// child runs, migrations and answer media types.
const CANNOT: Readonly<Record<string, string>> = {
  "1": "served by a target of another kind, which lists its steps its own way, not by GET /ai/flows",
  "4": "such a target logs no tool calls to read refusals from",
  "5": "such a target logs no tool calls to read saves from",
  "6": "such a target cannot be restarted from the tester",
  "8": "such a target keeps no execution log or memory to check",
  "9": "such a target runs no child flows of ours",
  "10": "such a target's store is not ours to migrate",
  "11": "such a target answers in its own format",
  "12": "the typecheck proves our engine's flows, not a target's",
  tools: "such a target logs no tool calls",
  transitions: "such a target logs no moves between steps",
};

// The points its sessions could prove, which the checklist does not judge on them yet.
const NOT_YET = "served by a target of another kind: only the steps it reached are counted yet";

/** steps: every step its outline lists, reached by a turn (from the run's coverage). */
function stepsPoint(entry: FlowCoverage[string] | undefined): ChecklistPoint {
  const steps = Object.entries(entry?.steps ?? {});
  if (steps.length === 0) return notApplicable("steps", "its target lists no steps to reach");
  const never = steps.filter(([, reached]) => !reached).map(([step]) => step);
  if (never.length) return missing("steps", `no scenario reached ${never.join(", ")}: add turns that get there`);
  return proved("steps", `all ${steps.length} steps reached`);
}

/**
 * The checklist of a flow that a target of another kind serves: what such a target cannot prove is
 * not applicable, saying why; the steps its turns reached are counted; the rest is not judged.
 * Never strict: the guide's points are about our engine's flows.
 */
export function foreignFlowChecklist(flowName: string, results: RunResults): FlowChecklist {
  const conversations = results.conversations.filter((conversation) => conversation.flowName === flowName);
  const ids = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "steps", "tools", "transitions"];
  const points = ids.map((id): ChecklistPoint => {
    if (id === "steps") return stepsPoint(results.coverage?.[flowName]);
    const why = CANNOT[id];
    return why ? notApplicable(id, why) : { id, status: "not judged", detail: NOT_YET };
  });
  const ran = conversations.filter((conversation) => conversation.ran).length;
  return { flow: flowName, scenarios: { total: conversations.length, ran }, judged: false, strict: false, points };
}
