import type { Config } from "../../../config.ts";
import type { ProviderGate } from "../../limits/provider-gate.ts";
import type { Scenario } from "../../scenario/scenario.ts";
import { stepReferences } from "../../scenario/step-references.ts";
import type { ScenarioTarget } from "../scenario-target.ts";
import type { LanggraphTargetEntry } from "../target-config.ts";
import { LanggraphClient } from "./langgraph-client.ts";
import { LanggraphConversation } from "./langgraph-conversation.ts";
import { langgraphGraphPointers } from "./langgraph-graph-pointers.ts";
import { LanggraphSessions } from "./langgraph-sessions.ts";
import { langgraphStepNames, type GraphsAsked } from "./langgraph-step-names.ts";

/**
 * A `"kind": "langgraph"` target for one scenario, `name` its key in flowcheck.config.json: its flowName is the graph, a conversation is a
 * thread, and the persisted contract reads the thread's state. Nothing is booted and nothing can be
 * restarted or made to fail from here. The graph's nodes are asked once per run (`asked`).
 */
export function langgraphTarget(
  entry: LanggraphTargetEntry,
  name: string,
  graphId: string,
  config: Config,
  provider: ProviderGate,
  asked: GraphsAsked,
): ScenarioTarget {
  const client = new LanggraphClient(entry, name);
  const pointers = langgraphGraphPointers(entry.graphs?.[graphId]);
  return {
    description: { baseUrl: entry.baseUrl, pins: {} },
    converse: () => new LanggraphConversation(client, graphId, pointers),
    sessions: { reader: new LanggraphSessions(client, entry.baseUrl, graphId, pointers) },
    capabilities: { config, provider },
    servingProblems: (scenario) => servingProblems(client, entry, graphId, scenario, asked),
    close: async () => undefined,
  };
}

/** The graph is served (else the error lists those that are), with every step the scenario names. */
async function servingProblems(
  client: LanggraphClient,
  entry: LanggraphTargetEntry,
  graphId: string,
  scenario: Scenario,
  asked: GraphsAsked,
): Promise<string[]> {
  const steps = await langgraphStepNames(client, entry, graphId, asked);
  if (!steps) return [];
  return stepReferences(scenario)
    .filter((reference) => !reference.state && !steps.includes(reference.step))
    .map(
      (reference) =>
        `${reference.path}: graph ${graphId} at ${entry.baseUrl} has no step ${reference.step}; its steps are ${steps.join(", ")}.`,
    );
}
