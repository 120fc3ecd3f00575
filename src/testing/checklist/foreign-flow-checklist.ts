import type { FlowCoverage } from "../report/flow-coverage.ts";
import type { RunResults } from "../report/run-results.ts";
import { missing, notApplicable, proved, type ChecklistPoint, type FlowChecklist } from "./checklist.ts";
import { playedTurns } from "./flow-evidence.ts";
import { completedPoint, everyTurnPoint } from "./session-points.ts";
import { foreignAdvancesPoint, foreignRefusesPoint, foreignToolsPoint } from "./foreign-tool-points.ts";

// Points 2 and 6 hold our transport's session id (body and header) stable from turn to turn.
const SESSION_ITS_OWN_WAY =
  "such a target carries its session its own way (a thread, a session pointer), not in our body and CHAT_SESSION_ID header";

// What a target of another kind cannot show: our engine's listing, session header, execution log,
// memory, child runs, migrations and answer media types. Its tool calls count where its answers
// report them (points 4, 5 and tools).
const CANNOT: Readonly<Record<string, string>> = {
  "1": "served by a target of another kind, which lists its steps its own way, not by GET /ai/flows",
  "2": SESSION_ITS_OWN_WAY,
  "6": SESSION_ITS_OWN_WAY,
  "8": "such a target keeps no execution log or memory to check",
  "9": "such a target runs no child flows of ours",
  "10": "such a target's store is not ours to migrate",
  "11": "such a target answers in its own format",
  "12": "the typecheck proves our engine's flows, not a target's",
  transitions: "such a target logs no moves between steps",
};

// A Mastra agent has no steps and its memory thread no end: a turn cannot stay on a step, move
// on from one, or complete the run, so points 4, 5 and 7 ask for what its scenarios cannot state.
const AGENT_CANNOT: Readonly<Record<string, string>> = {
  "4": "a Mastra agent has no steps for a refused input to stay on; expectToolCalls checks its failed calls",
  "5": "a Mastra agent has no steps for a saved input to move on from; expectToolCalls checks its calls",
  "7": "a Mastra agent's memory thread has no end for a turn to complete",
};

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
 * not applicable, saying why; every turn's assertions (3), the completed run (7), the steps
 * reached and, where its answers report tool calls, a refusal (4), a save (5) and the tools called
 * are judged on the conversations that ran. Judged when every one of the run's
 * conversations of the flow ran; never strict: the guide's points are about our engine's flows.
 */
export function foreignFlowChecklist(flowName: string, results: RunResults): FlowChecklist {
  const conversations = results.conversations.filter((conversation) => conversation.flowName === flowName);
  const ran = conversations.filter((conversation) => conversation.ran);
  const judged = ran.length > 0 && ran.length === conversations.length;
  const turns = playedTurns(ran);
  const why = `${conversations.length - ran.length} of its ${conversations.length} conversations did not run`;
  const ids = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "steps", "tools", "transitions"];
  const agent = results.coverage?.[flowName]?.targetKind === "mastra";
  const points = ids.map((id): ChecklistPoint => {
    const cannot = CANNOT[id] ?? (agent ? AGENT_CANNOT[id] : undefined);
    if (cannot) return notApplicable(id, cannot);
    if (!judged) return { id, status: "not judged", detail: why };
    if (id === "3") return everyTurnPoint({ turns }, true);
    if (id === "7") return completedPoint({ turns });
    if (id === "4") return foreignRefusesPoint(turns);
    if (id === "5") return foreignAdvancesPoint(turns);
    if (id === "tools") return foreignToolsPoint(turns, results.coverage?.[flowName]);
    return stepsPoint(results.coverage?.[flowName]);
  });
  return { flow: flowName, scenarios: { total: conversations.length, ran: ran.length }, judged, strict: false, points };
}
