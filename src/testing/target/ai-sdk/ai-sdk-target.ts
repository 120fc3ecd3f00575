import type { Config } from "../../../config.ts";
import type { ProviderGate } from "../../limits/provider-gate.ts";
import { statefulEntryTarget } from "../http/http-target.ts";
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
  return statefulEntryTarget(
    entry,
    `targets.${name}`,
    flowName,
    { config, provider },
    () => new AiSdkConversation(entry, name),
  );
}
