import type { FlowOutline } from "../scenario/meaning-problems.ts";
import { LanggraphClient } from "./langgraph/langgraph-client.ts";
import { langgraphStepNames } from "./langgraph/langgraph-step-names.ts";
import type { TargetEntry } from "./target-config.ts";

/**
 * The steps the target `name` lists for `flowName`, for the loader's checks: a LangGraph graph's
 * (asked of the server once per entry and graph, shared with each scenario's start, so this fails
 * when it cannot be reached), an http entry's `flows`, else none known before the target is asked
 * at start.
 */
export async function flowOutlineOf(name: string, entry: TargetEntry, flowName: string): Promise<FlowOutline> {
  if (entry.kind === "langgraph") {
    const client = new LanggraphClient(entry, name);
    return {
      name: flowName,
      stepNames: await langgraphStepNames(client, entry, flowName),
      servedBy: `graph ${flowName} of target ${name} (${entry.baseUrl})`,
      kind: entry.kind,
    };
  }
  const steps = entry.kind === "http" ? entry.flows?.[flowName]?.steps : undefined;
  return {
    name: flowName,
    stepNames: steps,
    servedBy: `${flowName} of target ${name} (${entry.baseUrl})`,
    kind: entry.kind,
  };
}
