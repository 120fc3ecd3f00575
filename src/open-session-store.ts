import type { Config } from "./config.ts";
import type { SessionStore } from "./engine/session-store.ts";
import { openMongoSessionStore } from "./store/mongo/open-mongo-session-store.ts";
import { SqliteSessionStore } from "./store/sqlite/sqlite-session-store.ts";

/** The store SESSION_STORE names: SQLite at SQLITE_PATH (else `defaultSqlitePath`), or MongoDB at MONGO_URL. */
export async function openSessionStore(config: Config, defaultSqlitePath: string): Promise<SessionStore> {
  if (config.sessionStore === "MONGO") {
    return openMongoSessionStore(config.mongo.url!, config.mongo.database);
  }
  return new SqliteSessionStore(config.sqlitePath ?? defaultSqlitePath);
}
