import http from "node:http";
import type { AddressInfo } from "node:net";

/** A node:http server on 127.0.0.1 with a port of its own. */
export interface LoopbackServer {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  url: string;
  /** Stops listening and drops the connections still open (a request left unanswered among them). */
  close(): Promise<void>;
}

/** Serves `handler` on 127.0.0.1, port 0. */
export async function listenOnLoopback(handler: http.RequestListener): Promise<LoopbackServer> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      return closed;
    },
  };
}

/** The whole body of a request, as text. */
export async function bodyOf(request: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** `text` parsed as JSON, or undefined when it is not JSON, so a fixture answers a bad body with a 400. */
export function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A port nothing listens on: one the system gave a server that is closed again. */
export async function closedPort(): Promise<number> {
  const server = await listenOnLoopback(() => undefined);
  const port = Number(new URL(server.url).port);
  await server.close();
  return port;
}
