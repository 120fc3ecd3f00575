import { createServer, type ServerResponse } from "node:http";
import { listen } from "../../http/node-server.ts";
import type { SeamResponse } from "./seam-response.ts";
import type { SeamHandler } from "./seam-call.ts";
import { SeamExchange } from "./seam-exchange.ts";

/** An OpenAI-compatible endpoint on loopback whose calls `handler` answers. */
export interface SeamServer {
  /** `http://127.0.0.1:<port>/v1`: what an app's OpenAI SDK takes as its base URL. */
  readonly baseUrl: string;
  /** Stops listening and ends every connection, held ones too. */
  close(): Promise<void>;
}

/**
 * Serves `POST /v1/chat/completions` and `POST /v1/responses` on 127.0.0.1 at a free port, each
 * call read, answered by `handler`, and written back as the provider would.
 *
 * @example
 * const seam = await startSeamServer({ answer: async () => ({ reply: scriptedText("Hello.") }) });
 * // start the app with OPENAI_BASE_URL=seam.baseUrl, then: await seam.close();
 */
export async function startSeamServer(handler: SeamHandler): Promise<SeamServer> {
  const exchange = new SeamExchange(handler);
  const held = new Set<NodeJS.Timeout>();
  const server = createServer((request, response) => {
    let text = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (text += chunk));
    // A client gone before its body arrived is answered by nobody; the server carries on.
    request.on("error", () => response.destroy());
    request.on("end", () => {
      exchange
        .respond(request.method ?? "GET", request.url ?? "/", text)
        .then((answer) => send(response, answer, server.listening ? held : undefined))
        .catch((error: unknown) => {
          console.error(`flowcheck: the model seam failed outside its handler: ${(error as Error)?.stack ?? error}`);
          response.destroy();
        });
    });
  });
  // The run's end closes the seam, but node:test ends its run only once nothing holds this
  // process: a seam listening, or an app's keep-alive connection to it, must not hold it.
  server.on("connection", (socket) => socket.unref());
  const origin = await listen(server, "127.0.0.1", 0);
  server.unref();
  return {
    baseUrl: `${origin}/v1`,
    close: () =>
      new Promise<void>((done) => {
        for (const timer of held) clearTimeout(timer);
        held.clear();
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}

/**
 * Writes the answer whole, or holds the connection and then resets it, as a provider that times
 * out does; with nowhere to hold it (the server closed while the handler answered), resets it at once.
 */
function send(response: ServerResponse, answer: SeamResponse, held: Set<NodeJS.Timeout> | undefined): void {
  if ("holdMs" in answer) {
    if (held === undefined) {
      response.socket?.resetAndDestroy();
      return;
    }
    const timer = setTimeout(() => {
      held.delete(timer);
      response.socket?.resetAndDestroy();
    }, answer.holdMs);
    held.add(timer);
    return;
  }
  response.writeHead(answer.status, { ...answer.headers, "content-length": Buffer.byteLength(answer.body) });
  response.end(answer.body);
}
