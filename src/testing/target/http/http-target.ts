import type { Config } from "../../../config.ts";
import type { ProviderGate } from "../../limits/provider-gate.ts";
import { stepReferences } from "../../scenario/step-references.ts";
import type { ScenarioTarget } from "../scenario-target.ts";
import type { HttpTargetEntry } from "../target-config.ts";
import type { TargetConversation } from "../target-conversation.ts";
import { HttpConversation } from "./http-conversation.ts";
import { HttpSessions } from "./http-sessions.ts";
import type { StateEndpointEntry } from "./read-http-state.ts";

/** An entry whose sessions are read from its own state endpoint, its steps listed by its `flows`: http's, ai-sdk's. */
type StatefulEntry = StateEndpointEntry & Pick<HttpTargetEntry, "flows">;

/**
 * A target for one scenario of an entry whose sessions are read from its state endpoint when it has
 * one (else the persisted contract is not checked, saying why), the steps its `flows` list checked at
 * start, each conversation made by `converse`; `where` is the entry's key (`targets.<name>`).
 */
export function statefulEntryTarget(
  entry: StatefulEntry,
  where: string,
  flowName: string,
  capabilities: { config: Config; provider: ProviderGate },
  converse: () => TargetConversation,
): ScenarioTarget {
  const steps = entry.flows?.[flowName]?.steps;
  return {
    description: { baseUrl: entry.baseUrl, pins: {} },
    converse,
    sessions: entry.state
      ? { reader: new HttpSessions(entry, where, flowName) }
      : {
          unavailable:
            `${where} has no state endpoint (state.path), so what it stored cannot be read; ` +
            "the persisted contract is not checked",
        },
    capabilities,
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
  return statefulEntryTarget(entry, where, flowName, { config, provider }, () => new HttpConversation(entry, where));
}
