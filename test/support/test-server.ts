import { join } from "node:path";
import { loadConfig } from "../../src/config.ts";
import { createApp, type App, type AppOptions } from "../../src/create-app.ts";
import type { FlowEntry } from "../../src/engine/index.ts";
import { serve, type RunningServer } from "../../src/serve.ts";
import { SqliteSessionStore, type SqliteStoreOptions } from "../../src/store/sqlite/sqlite-session-store.ts";
import { tempDir } from "./temp-path.ts";

export interface TestServer {
  app: App;
  server: RunningServer;
  url: string;
  sqlitePath: string;
  /** Closes the server and the app, and removes the SQLite file. */
  close(): Promise<void>;
}

/**
 * The app serving `flows` on 127.0.0.1 with an ephemeral port and its own SQLite file under test/.tmp.
 * The environment is `env` alone (not process.env), so a test sees only the pins it sets. `flows` is
 * required, so no spec serves whatever flows the app registers by default. `sqlite` are the store's
 * options (e.g. a short `busyTimeoutMs` for a spec that locks the file). `apiToken` locks the API
 * as `npm start` does with FLOW_API_TOKEN.
 */
export async function startTestServer(
  options: Omit<AppOptions, "config" | "store" | "flows"> & {
    flows: readonly FlowEntry[];
    env?: Record<string, string>;
    sqlite?: SqliteStoreOptions;
    apiToken?: string;
  },
): Promise<TestServer> {
  const dir = await tempDir("server");
  const sqlitePath = join(dir.path, "sessions.sqlite");
  const { env = {}, sqlite, apiToken, ...appOptions } = options;
  const app = await createApp({
    ...appOptions,
    config: loadConfig(env),
    store: new SqliteSessionStore(sqlitePath, sqlite),
    log: appOptions.log ?? (() => undefined),
  });
  const server = await serve(app, "127.0.0.1", 0, { apiToken });
  return {
    app,
    server,
    url: server.url,
    sqlitePath,
    close: async () => {
      await server.close();
      dir.remove();
    },
  };
}
