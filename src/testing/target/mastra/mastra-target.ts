import type { Config } from "../../../config.ts";
import type { ProviderGate } from "../../limits/provider-gate.ts";
import type { ScenarioTarget } from "../scenario-target.ts";
import { MastraClient } from "./mastra-client.ts";
import { MastraConversation } from "./mastra-conversation.ts";
import { MastraSessions } from "./mastra-sessions.ts";
import type { MastraTargetEntry } from "./mastra-target-entry.ts";

/**
 * A `"kind": "mastra"` target for one scenario, `name` its key in flowcheck.config.json: its
 * flowName is the agent's id, a conversation is a memory thread, and the persisted contract reads
 * the thread's messages and working memory. Nothing is booted here; an agent the server lacks fails
 * the first turn, naming the agents it has.
 */
export function mastraTarget(
  entry: MastraTargetEntry,
  name: string,
  agentId: string,
  config: Config,
  provider: ProviderGate,
): ScenarioTarget {
  const client = new MastraClient(entry, name);
  return {
    description: { baseUrl: entry.baseUrl, pins: {} },
    converse: () => new MastraConversation(client, agentId),
    sessions: { reader: new MastraSessions(client, agentId) },
    capabilities: { config, provider },
    servingProblems: async () => [],
    close: async () => undefined,
  };
}
