import { existsSync } from "node:fs";
import type { Config } from "../../config.ts";
import { openMongoSessionStore } from "../../store/mongo/open-mongo-session-store.ts";
import { SqliteSessionStore } from "../../store/sqlite/sqlite-session-store.ts";
import { keepAliveAgent } from "../client/chat-client.ts";
import type { ProviderGate } from "../limits/provider-gate.ts";
import { flowcheckApi } from "./flowcheck-api.ts";
import type { ScenarioTarget } from "./scenario-target.ts";
import type { SessionReader, TargetSessions } from "./session-reader.ts";
import { pinsOf } from "./target-pins.ts";

/** The store's sessions, which the target closes when it closes, or why they cannot be read. */
type OpenedSessions = TargetSessions & { readonly reader?: SessionReader & { close(): Promise<void> } };

/** The target's store as this process can read it (SQLITE_PATH read-only, or MongoDB), else why not. */
async function openTargetSessions(config: Config): Promise<OpenedSessions> {
  const unread = "so the target's store cannot be read; the persisted contract is not checked";
  if (config.sessionStore === "MONGO") {
    return { reader: await openMongoSessionStore(config.mongo.url!, config.mongo.database) };
  }
  const path = config.sqlitePath;
  if (!path) return { unavailable: `FLOW_BASE_URL is set but SQLITE_PATH is not, ${unread}` };
  if (!existsSync(path)) return { unavailable: `SQLITE_PATH=${path} does not exist, ${unread}` };
  return { reader: new SqliteSessionStore(path, { readonly: true }) };
}

/**
 * The already-running server at `baseUrl` (FLOW_BASE_URL, or a target of flowcheck.config.json
 * `elsewhere` names), its sessions read from SQLITE_PATH (read-only) or MongoDB when this process
 * can reach them, else not read, saying why.
 */
export async function externalTarget(
  baseUrl: string,
  config: Config,
  scenarioKeys: readonly string[],
  provider: ProviderGate,
  elsewhere?: string,
): Promise<ScenarioTarget> {
  const sessions = await openTargetSessions(config);
  const agent = keepAliveAgent();
  return {
    description: { baseUrl, ...(elsewhere ? { elsewhere } : {}), pins: pinsOf(config.env, scenarioKeys) },
    ...flowcheckApi(baseUrl, agent),
    sessions,
    capabilities: { config, provider },
    close: async () => {
      agent.destroy();
      await sessions.reader?.close();
    },
  };
}
