import type { LanggraphTargetEntry } from "../target-config.ts";
import type { LanggraphClient } from "./langgraph-client.ts";

/**
 * The step names a graph's scenarios may name: its entry's `steps`, else, for a graph read by the
 * node it waits at, its nodes; undefined for a graph that keeps its step in its state without
 * listing the names (nothing to check them against). A graph the server lacks is an error listing
 * those it has.
 */
export async function langgraphStepNames(
  client: LanggraphClient,
  entry: LanggraphTargetEntry,
  graphId: string,
): Promise<readonly string[] | undefined> {
  const graph = entry.graphs?.[graphId];
  if (graph?.steps) return graph.steps;
  const nodes = await client.graphNodes(graphId);
  return graph?.step === undefined ? nodes : undefined;
}
