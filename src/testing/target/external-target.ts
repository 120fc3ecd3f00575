import { existsSync } from "node:fs";
import { DEFAULTS } from "../../config.ts";
import { FlowcheckError } from "../../errors.ts";
import { SqliteSessionStore } from "../../store/sqlite/sqlite-session-store.ts";
import { keepAliveAgent } from "../client/chat-client.ts";
import type { ScenarioTarget, SessionReader } from "./scenario-target.ts";
import { pinsOf } from "./target-pins.ts";

/**
 * The already-running server at `baseUrl` (FLOW_BASE_URL), its sessions read from SQLITE_PATH
 * (read-only) or MongoDB when this process can reach them, else not read, saying why.
 */
export async function externalTarget(baseUrl: string, env: NodeJS.ProcessEnv, scenarioKeys: string[]): Promise<ScenarioTarget> {
  const mode = env["FLOW_MODEL"];
  if (mode === "record" || mode === "replay") {
    throw new FlowcheckError(
      "config_invalid",
      `FLOW_MODEL=${mode} tapes the models of an app in this process, but FLOW_BASE_URL=${baseUrl} runs its models elsewhere; unset one of them.`,
    );
  }
  const path = env["SQLITE_PATH"];
  const kind = env["SESSION_STORE"] ?? "SQLITE";
  const mongoUrl = env["MONGO_URL"];
  let sessions: (SessionReader & { close(): Promise<void> }) | undefined;
  let sessionsUnavailable: string | undefined;
  if (kind === "MONGO") {
    if (!mongoUrl) sessionsUnavailable = "SESSION_STORE=MONGO is set but MONGO_URL is not, so the target's store cannot be read; the persisted contract is not checked";
    else {
      const { MongoSessionStore } = await import("../../store/mongo/mongo-session-store.ts");
      sessions = await MongoSessionStore.open(mongoUrl, env["DOCUMENT_DB"] ?? DEFAULTS.DOCUMENT_DB);
    }
  } else if (kind !== "SQLITE") sessionsUnavailable = `SESSION_STORE=${kind} cannot be read by this runner; the persisted contract is not checked`;
  else if (!path) sessionsUnavailable = "FLOW_BASE_URL is set but SQLITE_PATH is not, so the target's store cannot be read; the persisted contract is not checked";
  else if (!existsSync(path)) sessionsUnavailable = `SQLITE_PATH=${path} does not exist, so the target's store cannot be read; the persisted contract is not checked`;
  else sessions = new SqliteSessionStore(path, { readonly: true });
  const agent = keepAliveAgent();
  return {
    baseUrl,
    agent,
    sessions,
    ...(sessionsUnavailable ? { sessionsUnavailable } : {}),
    pins: pinsOf(env, scenarioKeys),
    close: async () => {
      agent.destroy();
      await sessions?.close();
    },
  };
}
