import type { LanggraphTargetEntry } from "../target-config.ts";
import type { LanggraphClient } from "./langgraph-client.ts";

/**
 * The nodes each graph was asked for, by the entry read for the run (the config is read once per
 * run and frozen). Kept by the run, so the loader's checks and every scenario's start share one
 * request, and another run asks again.
 */
export type GraphsAsked = WeakMap<LanggraphTargetEntry, Map<string, Promise<string[]>>>;

/**
 * The step names a graph's scenarios may name: its entry's `steps`, else, for a graph read by the
 * node it waits at, its nodes; undefined for a graph that keeps its step in its state without
 * listing the names (nothing to check them against). A graph the server lacks is an error listing
 * those it has. The server is asked once per entry and graph in `asked`, its answer (or failure) shared.
 */
export async function langgraphStepNames(
  client: LanggraphClient,
  entry: LanggraphTargetEntry,
  graphId: string,
  asked: GraphsAsked,
): Promise<readonly string[] | undefined> {
  const graph = entry.graphs?.[graphId];
  if (graph?.steps) return graph.steps;
  const nodes = await nodesOf(client, entry, graphId, asked);
  return graph?.step === undefined ? nodes : undefined;
}

function nodesOf(
  client: LanggraphClient,
  entry: LanggraphTargetEntry,
  graphId: string,
  asked: GraphsAsked,
): Promise<string[]> {
  let graphs = asked.get(entry);
  if (!graphs) asked.set(entry, (graphs = new Map()));
  let nodes = graphs.get(graphId);
  if (!nodes) graphs.set(graphId, (nodes = client.graphNodes(graphId)));
  return nodes;
}
