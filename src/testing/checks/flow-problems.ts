import { preview } from "../../engine/scripted-model.ts";
import type { ChatClient } from "../client/chat-client.ts";
import { parseObject } from "../answer/read-answer.ts";
import type { Scenario } from "../scenario/scenario.ts";
import { stepReferences } from "../scenario/step-references.ts";

interface ListedFlow {
  name: string;
  steps: string[];
}

function isListedFlow(value: unknown): value is ListedFlow {
  const flow = value as Partial<ListedFlow> | null;
  return (
    typeof flow?.name === "string" && Array.isArray(flow.steps) && flow.steps.every((step) => typeof step === "string")
  );
}

/**
 * What keeps the target from serving this scenario, as its `GET /ai/flows` tells: the route
 * failing (or locked: then how to send credentials), the scenario's flow not listed (another
 * deployment), or steps the scenario names that the listed flow does not have (another version of
 * the flow). Empty when the target serves it.
 */
export async function flowProblems(client: ChatClient, scenario: Scenario): Promise<string[]> {
  const where = `GET ${client.urlOf("/ai/flows")}`;
  const { response } = await client.listFlows();
  const body = parseObject(response.body);
  if (response.status === 401) {
    const error = body?.["error"] as { code?: unknown; message?: unknown } | undefined;
    const said =
      typeof error?.message === "string"
        ? `${String(error.code)}: ${error.message}`
        : JSON.stringify(preview(response.body, 120));
    return [
      `${where} answered 401 (${said}); the server wants credentials this run did not send, or refused those it sent: ` +
        `give them with FLOW_HEADERS, e.g. FLOW_HEADERS='{"Authorization": "Bearer <the server's FLOW_API_TOKEN>"}'.`,
    ];
  }
  const flows = body?.["flows"];
  if (response.status !== 200 || !Array.isArray(flows) || !flows.every(isListedFlow)) {
    return [
      `${where} answered ${response.status} ${JSON.stringify(preview(response.body, 120))}; ` +
        `a flowcheck server lists its flows there as {"flows": [{"name", "steps", …}]}.`,
    ];
  }
  const flow = flows.find((candidate) => candidate.name === scenario.flowName);
  if (!flow) {
    const names = flows.map((candidate) => candidate.name).join(", ") || "no flow";
    return [
      `${where} does not list ${scenario.flowName}; it lists ${names}. Is this the server the scenario is meant for?`,
    ];
  }
  return stepReferences(scenario)
    .filter((reference) => !flow.steps.includes(reference.step))
    .map(
      (reference) =>
        `${reference.path}: the target's ${flow.name} has no step ${reference.step}; its steps are ${flow.steps.join(", ")}.`,
    );
}
