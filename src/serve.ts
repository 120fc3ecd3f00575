import type { Server } from "node:http";
import type { App } from "./create-app.ts";
import { bearerTokenGate } from "./http/bearer-token-gate.ts";
import { createNodeServer, listen } from "./http/node-server.ts";

export interface RunningServer {
  /** e.g. `http://127.0.0.1:3000` */
  readonly url: string;
  readonly server: Server;
  /** Stops accepting, ends idle keep-alive connections, then closes the app. */
  close(): Promise<void>;
}

export interface ServeOptions {
  /**
   * Locks the API: every request without `Authorization: Bearer <apiToken>` is answered 401
   * `unauthorized`. Given explicitly (`npm start` passes `FLOW_API_TOKEN`), never read from the
   * app's configuration, so an app a test run serves is open whatever the environment holds.
   */
  apiToken?: string | undefined;
}

/** Serves `app` on `host:port` (port 0 picks a free one). */
export async function serve(
  app: App,
  host = app.config.host,
  port = app.config.port,
  options: ServeOptions = {},
): Promise<RunningServer> {
  const server = createNodeServer(
    app.handler,
    options.apiToken === undefined ? {} : { gate: bearerTokenGate(options.apiToken) },
  );
  const url = await listen(server, host, port);
  return {
    url,
    server,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await closed;
      await app.close();
    },
  };
}
