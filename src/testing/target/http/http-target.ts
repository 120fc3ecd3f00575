import type { Config } from "../../../config.ts";
import type { ProviderGate } from "../../limits/provider-gate.ts";
import { stepReferences } from "../../scenario/step-references.ts";
import type { ScenarioTarget } from "../scenario-target.ts";
import type { HttpTargetEntry } from "../target-config.ts";
import { HttpConversation } from "./http-conversation.ts";
import { HttpSessions } from "./http-sessions.ts";

/**
 * A `"kind": "http"` target for one scenario, `name` its key in flowcheck.config.json: turns by the
 * entry's templates, sessions read from its state endpoint when it has one (else the persisted
 * contract is not checked, saying why), the steps its `flows` list checked at start.
 */
export function httpTarget(
  entry: HttpTargetEntry,
  name: string,
  flowName: string,
  config: Config,
  provider: ProviderGate,
): ScenarioTarget {
  const where = `targets.${name}`;
  const steps = entry.flows?.[flowName]?.steps;
  return {
    description: { baseUrl: entry.baseUrl, pins: {} },
    converse: () => new HttpConversation(entry, where),
    sessions: entry.state
      ? { reader: new HttpSessions(entry, where, flowName) }
      : {
          unavailable: `${where} has no state endpoint (state.path), so what it stored cannot be read; the persisted contract is not checked`,
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
