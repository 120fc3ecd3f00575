import type { Server } from "node:http";
import type { App } from "./create-app.ts";
import { createNodeServer, listen } from "./http/node-server.ts";

export interface RunningServer {
  /** e.g. `http://127.0.0.1:3000` */
  readonly url: string;
  readonly server: Server;
  /** Stops accepting, ends idle keep-alive connections, then closes the app. */
  close(): Promise<void>;
}

/** Serves `app` on `host:port` (port 0 picks a free one). */
export async function serve(app: App, host = app.config.host, port = app.config.port): Promise<RunningServer> {
  const server = createNodeServer(app.handler);
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
