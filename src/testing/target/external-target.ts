import { existsSync } from "node:fs";
import type { Config } from "../../config.ts";
import { openMongoSessionStore } from "../../store/mongo/open-mongo-session-store.ts";
import { SqliteSessionStore } from "../../store/sqlite/sqlite-session-store.ts";
import { keepAliveAgent } from "../client/chat-client.ts";
import type { ScenarioTarget, SessionReader } from "./scenario-target.ts";
import { pinsOf } from "./target-pins.ts";

type ClosableReader = SessionReader & { close(): Promise<void> };

/** The target's store as this process can read it (SQLITE_PATH read-only, or MongoDB), else why not. */
async function openTargetSessions(config: Config): Promise<{ sessions?: ClosableReader; unavailable?: string }> {
  const unread = "so the target's store cannot be read; the persisted contract is not checked";
  if (config.sessionStore === "MONGO") {
    return { sessions: await openMongoSessionStore(config.mongo.url!, config.mongo.database) };
  }
  const path = config.sqlitePath;
  if (!path) return { unavailable: `FLOW_BASE_URL is set but SQLITE_PATH is not, ${unread}` };
  if (!existsSync(path)) return { unavailable: `SQLITE_PATH=${path} does not exist, ${unread}` };
  return { sessions: new SqliteSessionStore(path, { readonly: true }) };
}

/**
 * The already-running server at FLOW_BASE_URL, its sessions read from SQLITE_PATH (read-only) or
 * MongoDB when this process can reach them, else not read, saying why.
 */
export async function externalTarget(
  baseUrl: string,
  config: Config,
  scenarioKeys: readonly string[],
): Promise<ScenarioTarget> {
  const { sessions, unavailable } = await openTargetSessions(config);
  const agent = keepAliveAgent();
  return {
    baseUrl,
    agent,
    sessions,
    ...(unavailable ? { sessionsUnavailable: unavailable } : {}),
    pins: pinsOf(config.env, scenarioKeys),
    config,
    close: async () => {
      agent.destroy();
      await sessions?.close();
    },
  };
}
