import http from "node:http";
import { SESSION_HEADER } from "../../http/http-exchange.ts";
import { IDEMPOTENCY_HEADER } from "../../http/idempotency-key.ts";

export interface ChatExchange {
  /** `url`: the whole URL, where `path` is not under the target's baseUrl's origin alone. */
  request: { method: string; url?: string; path: string; headers: Record<string, string>; body: string };
  response: { status: number; headers: http.IncomingHttpHeaders; body: string };
  millis: number;
}

export interface ChatClientOptions {
  timeoutMs?: number;
  headers?: Readonly<Record<string, string>>;
}

/** One keep-alive connection to a server, for every request made through it, one at a time. */
export function keepAliveAgent(): http.Agent {
  return new http.Agent({ keepAlive: true, maxSockets: 1 });
}

/**
 * Talks to a flowcheck server over one keep-alive connection (node:http: the global fetch costs
 * about fifteen times more per request on loopback). Given an agent, it uses that agent's
 * connection, which outlives it: conversations one after another on one target then pay for
 * opening a connection once.
 */
export class ChatClient {
  readonly #base: URL;
  // Parsed once: a URL per request costs more than its whole JSON.
  readonly #host: { hostname: string; port: string };
  readonly #agent: http.Agent;
  readonly #ownsAgent: boolean;
  readonly #timeoutMs: number | undefined;
  readonly #headers: Readonly<Record<string, string>> | undefined;

  /**
   * `timeoutMs`: how long a request may take, from sending it to the answer's last byte;
   * `headers`: added to every request (the client's own headers win).
   */
  constructor(baseUrl: string, agent?: http.Agent, options: ChatClientOptions = {}) {
    this.#base = new URL(baseUrl);
    this.#host = { hostname: this.#base.hostname.replace(/^\[(.*)\]$/, "$1"), port: this.#base.port };
    this.#agent = agent ?? keepAliveAgent();
    this.#ownsAgent = agent === undefined;
    this.#timeoutMs = options.timeoutMs;
    this.#headers = options.headers && Object.keys(options.headers).length ? options.headers : undefined;
  }

  /** `idempotencyKey`: the turn's name, the same each time this turn is sent (see the Idempotency-Key header). */
  send(message: {
    flow?: string;
    session?: string;
    message: string;
    accept?: string;
    idempotencyKey?: string;
  }): Promise<ChatExchange> {
    const body = JSON.stringify(
      message.session ? { message: message.message } : { flow: message.flow, message: message.message },
    );
    const headers: Record<string, string> = {
      "Content-Type": "application/json",
      Accept: message.accept ?? "application/json",
    };
    if (message.session) headers[SESSION_HEADER] = message.session;
    if (message.idempotencyKey) headers[IDEMPOTENCY_HEADER] = message.idempotencyKey;
    return this.#request("POST", "/ai/chat", headers, body);
  }

  /** `GET /ai/flows`: the flows the server says it serves, with their steps. */
  listFlows(): Promise<ChatExchange> {
    return this.#request("GET", "/ai/flows", { Accept: "application/json" }, "");
  }

  /** The full URL of `path` on this client's server, for messages. */
  urlOf(path: string): string {
    return new URL(path, this.#base).href;
  }

  #request(method: string, path: string, own: Record<string, string>, body: string): Promise<ChatExchange> {
    const started = performance.now();
    const headers = this.#headers ? { ...this.#headers, ...own } : own;
    return new Promise((resolve, reject) => {
      const timeoutMs = this.#timeoutMs;
      // A server that never answers must fail its turn, not hang the run: the connection is dropped.
      const timer =
        timeoutMs === undefined
          ? undefined
          : setTimeout(() => {
              req.destroy();
              reject(
                new Error(
                  `${method} ${this.urlOf(path)} gave no whole answer within ${timeoutMs} ms (FLOW_TURN_TIMEOUT_MS); ` +
                    "the server may be stuck, or a live turn slower than that: raise FLOW_TURN_TIMEOUT_MS if so.",
                ),
              );
            }, timeoutMs);
      const settle =
        <T>(then: (value: T) => void) =>
        (value: T) => {
          clearTimeout(timer);
          then(value);
        };
      const req = http.request({ ...this.#host, path, method, headers, agent: this.#agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", settle(reject));
        res.on("end", () =>
          settle(resolve)({
            request: { method, path, headers, body },
            response: {
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks).toString("utf8"),
            },
            millis: performance.now() - started,
          }),
        );
      });
      req.on(
        "error",
        settle((error: Error) =>
          reject(
            new Error(`${method} ${this.urlOf(path)} failed: ${error.message}. Is the server running?`, {
              cause: error,
            }),
          ),
        ),
      );
      req.end(body);
    });
  }

  close(): void {
    if (this.#ownsAgent) this.#agent.destroy();
  }
}
