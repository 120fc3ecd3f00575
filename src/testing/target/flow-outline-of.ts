import type { FlowOutline } from "../scenario/meaning-problems.ts";
import { LanggraphClient } from "./langgraph/langgraph-client.ts";
import { langgraphStepNames, type GraphsAsked } from "./langgraph/langgraph-step-names.ts";
import type { TargetEntry } from "./target-config.ts";

/**
 * What the entry itself says of `flowName`, with no request: its kind, and the steps an http
 * entry's `flows` or a LangGraph entry's `graphs` list (undefined when it lists none: they are
 * checked when the target is asked at start).
 */
export function listedFlowOutline(name: string, entry: TargetEntry, flowName: string): FlowOutline {
  const where = `${flowName} of target ${name} (${entry.baseUrl})`;
  if (entry.kind === "langgraph")
    return { name: flowName, stepNames: entry.graphs?.[flowName]?.steps, servedBy: `graph ${where}`, kind: entry.kind };
  const steps = entry.kind === "http" || entry.kind === "ai-sdk" ? entry.flows?.[flowName]?.steps : undefined;
  return { name: flowName, stepNames: steps, servedBy: where, kind: entry.kind };
}

/**
 * The steps the target `name` lists for `flowName`, for the loader's checks: a LangGraph graph's
 * (its entry's, else asked of the server once per entry and graph, shared with each scenario's
 * start, so this fails when it cannot be reached), an http or ai-sdk entry's `flows`, else none known before
 * the target is asked at start. The graphs `asked` are the run's.
 */
export async function flowOutlineOf(
  name: string,
  entry: TargetEntry,
  flowName: string,
  asked: GraphsAsked = new WeakMap(),
): Promise<FlowOutline> {
  const listed = listedFlowOutline(name, entry, flowName);
  if (entry.kind !== "langgraph") return listed;
  return { ...listed, stepNames: await langgraphStepNames(new LanggraphClient(entry, name), entry, flowName, asked) };
}
