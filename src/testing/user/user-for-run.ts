import type { Config, ModelMode } from "../../config.ts";
import type { ScriptedUser } from "../../engine/scripted-user.ts";
import { liveUser } from "./live-user.ts";
import { scriptedUser } from "./scripted-user.ts";
import type { UserSimulator } from "./user-simulator.ts";

export interface UserSetup {
  user: UserSimulator | undefined;
  /** Why there is no user, when there is none: a simulated scenario then fails with it. */
  unavailable: string | undefined;
}

/**
 * Who plays a flow's simulated users in a run of `mode`: its scripted user, or a live model (in
 * record too: the cassette wraps it). Replay has none here: the cassette plays the user back.
 * `fetch` is the conversation's provider gate for kind `user`.
 */
export function userForRun(
  config: Config,
  mode: ModelMode,
  scripted: ScriptedUser | undefined,
  flowName: string,
  fetch?: typeof globalThis.fetch,
): UserSetup {
  const none = (unavailable: string): UserSetup => ({ user: undefined, unavailable });
  if (mode === "scripted") {
    if (!scripted)
      return none(
        `${flowName} has no scripted user: add \`user\` to its FlowEntry (a function from the conversation ` +
          `so far to the user's next message), or run with FLOW_MODEL=live to have a model play the user`,
      );
    return { user: scriptedUser(scripted, flowName), unavailable: undefined };
  }
  if (mode === "replay") return none("replay of simulated users comes from the cassette");
  const { apiKey, baseURL, model } = config.user;
  if (!apiKey)
    return none(
      config.env["USER_BASE_URL"]
        ? `USER_BASE_URL is set without USER_API_KEY, so no model can play the simulated user (OPENAI_API_KEY ` +
            `is never sent to another host); set USER_API_KEY`
        : "no OPENAI_API_KEY (or USER_API_KEY) is set, so no model can play the simulated user; set one",
    );
  return {
    user: liveUser({
      apiKey,
      baseURL,
      model,
      maxRetries: config.openai.maxRetries,
      timeoutMs: config.openai.timeoutMs,
      ...(fetch ? { fetch } : {}),
    }),
    unavailable: undefined,
  };
}
