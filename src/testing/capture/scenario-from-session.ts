import { derivedConfig } from "../../config.ts";
import { FlowcheckError } from "../../errors.ts";
import type { FlowEntry } from "../../engine/scripted-model.ts";
import type { SessionStore } from "../../engine/session-store.ts";
import { storedInputs, storedReplies } from "./stored-replies.ts";
import { writeCapturedScenario, type WrittenScenario } from "./write-captured-scenario.ts";

export interface FromSessionOptions {
  id: string;
  store: SessionStore;
  flows: readonly FlowEntry[];
  /** The environment the capture is configured from (its model settings); the mode and clock are set here. */
  env: Readonly<Record<string, string | undefined>>;
  /** The scenarios folder. Default `scenarios`. */
  dir?: string;
  force?: boolean;
}

/** `BasicFlow` → `basic-flow`, as the demo scenarios are named. */
function kebabOf(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase();
}

/**
 * Turns a stored session into `<dir>/<flow>-<short id>.scenario.json` and its cassette: the stored
 * inputs are played again in this process on the stored replies, with the flow's clock pinned to
 * the session's start, and each turn's step, run status and changed state become its expectations.
 */
export async function scenarioFromSession(options: FromSessionOptions): Promise<WrittenScenario> {
  const document = await options.store.fetchAll(options.id);
  if (!document) {
    throw new FlowcheckError(
      "session_not_found",
      `No session "${options.id}" is stored in ${options.store.description}. ` +
        `Check the id (the CHAT_SESSION_ID header of its answers) and SESSION_STORE / SQLITE_PATH.`,
    );
  }
  const flowName = document.flow.name;
  const entry = options.flows.find((candidate) => candidate.flow.name === flowName);
  if (!entry) {
    const known = options.flows.map((candidate) => candidate.flow.name).join(", ");
    throw new FlowcheckError(
      "unknown_flow",
      `Session "${options.id}" is a conversation with ${flowName}, which is not registered (the flows are: ${known}). ` +
        `Register it in src/flows/team-flows.ts, then run this again.`,
    );
  }
  const pin = `${entry.flow.envPrefix}_CURRENT_DATE`;
  const env = { [pin]: document.createdAt };
  return writeCapturedScenario(
    {
      dir: options.dir ?? "scenarios",
      name: `${kebabOf(flowName)}-${options.id.slice(0, 8)}`,
      force: options.force ?? false,
      cassette: true,
    },
    {
      flowName,
      flows: options.flows,
      config: derivedConfig(options.env, { overrides: { ...env, FLOW_MODEL: "replay" } }),
      inputs: storedInputs(document),
    },
    {
      queues: storedReplies(document),
      source: `session ${options.id}`,
      description: `The conversation of session ${options.id} with ${flowName}, started ${document.createdAt}.`,
      env,
    },
  );
}
