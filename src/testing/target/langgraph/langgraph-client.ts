import { FlowcheckError } from "../../../errors.ts";
import { show } from "../../scenario/show.ts";
import {
  answered,
  jsonBodyOf,
  QUOTED_BODY,
  requestTarget,
  type RefusedDetails,
  type RequestFixes,
} from "../request-target.ts";

export interface LanggraphClientOptions {
  /** The server's root, e.g. `http://127.0.0.1:2024`. */
  baseUrl: string;
  /** Each request's limit, answer included; 60 s unless given. */
  timeoutMs?: number;
  /** Sent with every request, e.g. `{ "x-api-key": … }` resolved by the caller. */
  headers?: Record<string, string>;
}

/** What a turn sends: a user message into `input.messages`, or the answer to the pending interrupt. */
export type LanggraphTurn = { message: string } | { resume: unknown };

export interface LanggraphInterrupt {
  id?: string;
  value: unknown;
}

export interface LanggraphTask {
  id: string;
  /** The node the task runs. */
  name: string;
  interrupts: LanggraphInterrupt[];
  error?: unknown;
}

/** `GET /threads/{id}/state`: the thread's values, the nodes to run next and their tasks. */
export interface LanggraphThreadState {
  values: Record<string, unknown>;
  next: string[];
  tasks: LanggraphTask[];
  [key: string]: unknown;
}

const DEFAULT_TIMEOUT_MS = 60_000;
// The graph's own entry and exit, which the assistants' graph endpoint lists among the nodes.
const ENDPOINTS = new Set(["__start__", "__end__"]);

/**
 * A client of the LangGraph server API (`langgraphjs dev`, `langgraph up`, a LangSmith deployment)
 * for a target to play turns on: one thread per conversation, one `runs/wait` per turn. Every
 * failure is one FlowcheckError naming the request: `target_unreachable` (refused, or no answer in
 * time), `target_invalid_answer` (an error status or a body that is not the JSON asked for),
 * `target_run_failed` (the run itself raised).
 *
 * @example
 * const client = new LanggraphClient({ baseUrl: "http://127.0.0.1:2024" });
 * const thread = await client.createThread();
 * await client.runWait(thread, "chat", { message: "Ada Lovelace" });
 * const { values } = await client.threadState(thread);
 */
export class LanggraphClient {
  readonly #baseUrl: string;
  readonly #timeoutMs: number;
  readonly #headers: Record<string, string>;
  /** Where the target's keys are, for what its errors tell to fix: `targets.graphs.`. */
  readonly #at: string;
  readonly #fixes: RequestFixes;

  /** The whole URL and the headers of a request with a JSON body to `path` on the server, as this client sends it. */
  sent(path: string): { url: string; headers: Record<string, string> } {
    return { url: `${this.#baseUrl}${path}`, headers: this.#headersOf(true) };
  }

  #headersOf(withBody: boolean): Record<string, string> {
    return {
      accept: "application/json",
      ...(withBody ? { "content-type": "application/json" } : {}),
      ...this.#headers,
    };
  }

  /** `name` is the target's key in flowcheck.config.json, so that errors name the keys to fix. */
  constructor(options: LanggraphClientOptions, name?: string) {
    this.#baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#headers = options.headers ?? {};
    const at = (this.#at = name === undefined ? "the target's " : `targets.${name}.`);
    this.#fixes = {
      slow: `the LangGraph server may be stuck, or slower than that: raise ${at}timeoutMs in flowcheck.config.json if so, or look at the server's log.`,
      unreachable: `is the LangGraph server running there? Start it (langgraphjs dev --port <port>) or fix ${at}baseUrl in flowcheck.config.json.`,
      refused: `The LangGraph server refused the request: see its log, and if the request is wrong fix ${at}baseUrl or ${at}headers in flowcheck.config.json.`,
    };
  }

  /** Makes an empty thread and gives its id. */
  async createThread(): Promise<string> {
    const url = `${this.#baseUrl}/threads`;
    const thread = await this.#send("POST", url, {});
    const id = isRecord(thread) ? thread["thread_id"] : undefined;
    if (typeof id !== "string") throw invalid("POST", url, "a thread without a thread_id", thread);
    return id;
  }

  /** Runs `graphId` on the thread with the turn's input and waits for it to stop: its values, with `__interrupt__` while it waits. */
  async runWait(threadId: string, graphId: string, turn: LanggraphTurn): Promise<Record<string, unknown>> {
    const url = `${this.#baseUrl}/threads/${encodeURIComponent(threadId)}/runs/wait`;
    const body = runWaitBody(graphId, turn);
    const output = await this.#onGraph(graphId, "POST", url, body);
    if (!isRecord(output)) throw invalid("POST", url, "a run's output that is not an object", output);
    // runs/wait answers 200 once the run has stopped, and a run that raised stops with its error.
    const failure = output["__error__"];
    if (failure !== undefined) {
      throw new FlowcheckError(
        "target_run_failed",
        `POST ${url}: the run of graph ${graphId} failed: ${show(describe(failure), QUOTED_BODY)}; the server's log has its stack`,
        { details: failure },
      );
    }
    return output;
  }

  /** The thread's state now: values, the nodes to run next, and their tasks with any interrupts. */
  async threadState(threadId: string): Promise<LanggraphThreadState> {
    const url = `${this.#baseUrl}/threads/${encodeURIComponent(threadId)}/state`;
    const state = await this.#send("GET", url);
    if (
      !isRecord(state) ||
      !isRecord(state["values"]) ||
      !Array.isArray(state["next"]) ||
      !Array.isArray(state["tasks"])
    ) {
      throw invalid("GET", url, "a thread state without values, next and tasks", state);
    }
    const tasks = state["tasks"].map((task): LanggraphTask => {
      const { id, name, interrupts, error } = isRecord(task) ? task : {};
      return {
        id: String(id),
        name: String(name),
        interrupts: Array.isArray(interrupts) ? interrupts.map(interruptOf) : [],
        ...(error === undefined || error === null ? {} : { error }),
      };
    });
    return { ...state, values: state["values"], next: state["next"].map(String), tasks };
  }

  /** The thread's states, newest first, at most `limit` of them: where it was before its last run, too. */
  async threadHistory(threadId: string, limit: number): Promise<Pick<LanggraphThreadState, "values" | "next">[]> {
    const url = `${this.#baseUrl}/threads/${encodeURIComponent(threadId)}/history`;
    const history = await this.#send("POST", url, { limit });
    if (!Array.isArray(history) || !history.every(isRecord))
      throw invalid("POST", url, "a thread history that is not an array of states", history);
    return history.map((state) => ({
      values: isRecord(state["values"]) ? state["values"] : {},
      next: Array.isArray(state["next"]) ? state["next"].map(String) : [],
    }));
  }

  /** The graph's nodes in the order the server lists them, without `__start__` and `__end__`. */
  async graphNodes(graphId: string): Promise<string[]> {
    const url = `${this.#baseUrl}/assistants/${encodeURIComponent(graphId)}/graph`;
    const graph = await this.#onGraph(graphId, "GET", url);
    const nodes = isRecord(graph) ? graph["nodes"] : undefined;
    if (!Array.isArray(nodes)) throw invalid("GET", url, "a graph without nodes", graph);
    return nodes.map((node) => String(isRecord(node) ? node["id"] : node)).filter((id) => !ENDPOINTS.has(id));
  }

  /** The ids of the graphs the server serves (its assistants' graph_id), sorted. */
  async graphIds(): Promise<string[]> {
    const url = `${this.#baseUrl}/assistants/search`;
    const assistants = await this.#send("POST", url, { limit: 1000 });
    if (!Array.isArray(assistants)) throw invalid("POST", url, "an assistant list that is not an array", assistants);
    const ids = assistants.map((assistant) => (isRecord(assistant) ? assistant["graph_id"] : undefined));
    return [...new Set(ids.filter((id): id is string => typeof id === "string"))].sort();
  }

  /** `#send`, except that a 404 for a graph the server does not have says so and lists those it has. */
  async #onGraph(graphId: string, method: "GET" | "POST", url: string, body?: unknown): Promise<unknown> {
    try {
      return await this.#send(method, url, body);
    } catch (error) {
      const details = error instanceof FlowcheckError ? (error.details as RefusedDetails | undefined) : undefined;
      if (details?.status !== 404) throw error;
      const known = await this.graphIds();
      if (known.includes(graphId)) throw error;
      // The refusal's own fix (see the server's log) would mislead: the graph's name is what is wrong.
      throw new FlowcheckError(
        "target_invalid_answer",
        `${answered({ method, url, status: 404 })}: ${show(details.body, QUOTED_BODY)}: the LangGraph server at ${this.#baseUrl} has no graph ${graphId}; it has: ${known.join(", ") || "none"}. Name one of these (the graph ids of its langgraph.json)`,
        { cause: error, details },
      );
    }
  }

  async #send(method: "GET" | "POST", url: string, body?: unknown): Promise<unknown> {
    const exchange = await requestTarget({
      method,
      url,
      headers: this.#headersOf(body !== undefined),
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      timeoutMs: this.#timeoutMs,
      fixes: this.#fixes,
    });
    return jsonBodyOf(exchange, `Is ${url} a LangGraph server? Check ${this.#at}baseUrl in flowcheck.config.json.`);
  }
}

/** The body of a `runs/wait` request for `turn`: a user message into `input.messages`, or `command.resume`. */
export function runWaitBody(graphId: string, turn: LanggraphTurn): Record<string, unknown> {
  return "message" in turn
    ? { assistant_id: graphId, input: { messages: [{ role: "user", content: turn.message }] } }
    : { assistant_id: graphId, command: { resume: turn.resume } };
}

function invalid(method: string, url: string, what: string, body: unknown): FlowcheckError {
  return new FlowcheckError(
    "target_invalid_answer",
    `${method} ${url} answered ${what}: ${show(body, QUOTED_BODY)}; is this a LangGraph server?`,
    { details: { body } },
  );
}

function interruptOf(interrupt: unknown): LanggraphInterrupt {
  if (!isRecord(interrupt)) return { value: interrupt };
  return typeof interrupt["id"] === "string"
    ? { id: interrupt["id"], value: interrupt["value"] }
    : { value: interrupt["value"] };
}

/** `{ error, message }` as `error: message`; the dev server nests another such object, as JSON, in the message. */
function describe(failure: unknown): string {
  if (!isRecord(failure)) return JSON.stringify(failure) ?? String(failure);
  const { error, message } = failure;
  if (typeof message === "string" && message.startsWith("{")) {
    try {
      return describe(JSON.parse(message));
    } catch {
      // a message that only looks like JSON is quoted as it is
    }
  }
  return [error, message].filter((part) => typeof part === "string").join(": ") || JSON.stringify(failure);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
