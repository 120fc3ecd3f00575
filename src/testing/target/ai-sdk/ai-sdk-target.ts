import type { Config } from "../../../config.ts";
import type { ProviderGate } from "../../limits/provider-gate.ts";
import { stepReferences } from "../../scenario/step-references.ts";
import { HttpSessions } from "../http/http-sessions.ts";
import type { ScenarioTarget } from "../scenario-target.ts";
import { AiSdkConversation } from "./ai-sdk-conversation.ts";
import type { AiSdkTargetEntry } from "./ai-sdk-target-entry.ts";

/**
 * A `"kind": "ai-sdk"` target for one scenario, `name` its key in flowcheck.config.json: each
 * conversation a chat of the AI SDK route, sessions read from its state endpoint when it has one
 * (`{{session}}` the chat id; else the persisted contract is not checked, saying why), the steps its
 * `flows` list checked at start.
 */
export function aiSdkTarget(
  entry: AiSdkTargetEntry,
  name: string,
  flowName: string,
  config: Config,
  provider: ProviderGate,
): ScenarioTarget {
  const where = `targets.${name}`;
  const steps = entry.flows?.[flowName]?.steps;
  return {
    description: { baseUrl: entry.baseUrl, pins: {} },
    converse: () => new AiSdkConversation(entry, name),
    sessions: entry.state
      ? { reader: new HttpSessions(entry, where, flowName) }
      : {
          unavailable:
            `${where} has no state endpoint (state.path), so what the route stored of a chat cannot be read; ` +
            "the persisted contract is not checked",
        },
    capabilities: { config, provider },
    servingProblems: async (scenario) =>
      steps === undefined
        ? []
        : stepReferences(scenario)
            .filter((reference) => !steps.includes(reference.step))
            .map(
              (reference) =>
                `${reference.path}: ${where}.flows.${flowName} has no step ${reference.step}; its steps are ${steps.join(", ")}.`,
            ),
    close: async () => undefined,
  };
}
