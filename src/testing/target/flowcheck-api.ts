import type http from "node:http";
import { flowProblems } from "../checks/flow-problems.ts";
import { ChatClient } from "../client/chat-client.ts";
import { FlowcheckConversation } from "./flowcheck-conversation.ts";
import type { ScenarioTarget } from "./scenario-target.ts";

/**
 * How a target that speaks flowcheck's HTTP API at `baseUrl` plays a conversation (`POST /ai/chat`)
 * and says what it serves (`GET /ai/flows`). Given an `agent`, every request goes over its
 * keep-alive connection, which the conversations on the target share one after another.
 */
export function flowcheckApi(
  baseUrl: string,
  agent?: http.Agent,
): Pick<ScenarioTarget, "converse" | "servingProblems"> {
  return {
    converse: (options) => new FlowcheckConversation(new ChatClient(baseUrl, agent, options), options.flowName),
    servingProblems: async (scenario, options) => {
      const client = new ChatClient(baseUrl, agent, options);
      try {
        return await flowProblems(client, scenario);
      } finally {
        client.close();
      }
    },
  };
}
