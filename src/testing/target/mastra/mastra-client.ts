import { FlowcheckError, isFlowcheckError } from "../../../errors.ts";
import { show } from "../../scenario/show.ts";
import { httpRequest, requestHeaders, targetUrl } from "../http/http-request.ts";
import { DEFAULT_TIMEOUT_MS } from "../http/http-turn.ts";
import { answered, jsonBodyOf, type RefusedDetails, type TargetExchange } from "../request-target.ts";
import { DEFAULT_RESOURCE, type MastraTargetEntry } from "./mastra-target-entry.ts";

/** One message of a thread as Mastra stores it (`format: 2`): its text and parts under `content`. */
export interface StoredMessage {
  id: string;
  role: string;
  content: { parts?: unknown[]; content?: string } | string;
}

/**
 * The calls a Mastra target makes under `/api`: an agent's turn, the agents the server has, and a
 * thread's stored messages and working memory, read as the agent's memory keeps them. Errors name
 * the entry's keys (`targets.<name>.…`) to fix.
 */
export class MastraClient {
  readonly entry: MastraTargetEntry;
  /** `targets.<name>`, for messages. */
  readonly where: string;
  readonly resource: string;

  constructor(entry: MastraTargetEntry, name: string) {
    this.entry = entry;
    this.where = `targets.${name}`;
    this.resource = entry.resource ?? DEFAULT_RESOURCE;
  }

  /** The turn's request as it is sent: the route of the entry's mode, the new message and the thread it belongs to. */
  turnRequest(agentId: string, thread: string, input: string) {
    const mode = this.entry.mode ?? "stream";
    const body = JSON.stringify({ messages: input, memory: { thread, resource: this.resource } });
    const accept = mode === "stream" ? "text/event-stream" : "application/json";
    return {
      method: "POST" as const,
      url: this.#url(`/api/agents/${encodeURIComponent(agentId)}/${mode}`),
      headers: requestHeaders({ "content-type": "application/json", accept }, this.entry.headers),
      body,
    };
  }

  /** Plays a turn; an agent the server lacks is refused naming the agents it has. */
  async send(agentId: string, request: ReturnType<MastraClient["turnRequest"]>): Promise<TargetExchange> {
    try {
      return await this.#request({
        ...request,
        made: `the scenario's flowName (the agent's id), ${this.#at}mode or ${this.#at}headers`,
      });
    } catch (error) {
      if (statusOf(error) !== 404) throw error;
      const agents = await this.agents();
      if (agents.includes(agentId)) throw error;
      throw new FlowcheckError(
        "target_invalid_answer",
        `${this.where} (${this.entry.baseUrl}) has no agent ${show(agentId)}; its agents are ${agents.join(", ") || "none"}. ` +
          "Set the scenario's flowName to the id of one of them, or point the target's baseUrl at the server that has it.",
        { cause: error },
      );
    }
  }

  /** The ids of the agents the server has (`GET /api/agents`). */
  async agents(): Promise<string[]> {
    const exchange = await this.#request({ method: "GET", url: this.#url("/api/agents"), made: `${this.#at}baseUrl` });
    const body = jsonBodyOf(exchange, `Point ${this.#at}baseUrl at a Mastra server.`);
    if (body === null || typeof body !== "object" || Array.isArray(body))
      throw new FlowcheckError(
        "target_invalid_answer",
        `${answered(exchange)} with ${show(body)}, not the object of agents by id a Mastra server answers. ` +
          `Point ${this.#at}baseUrl at a Mastra server.`,
      );
    return Object.keys(body);
  }

  /** The thread's stored messages, oldest first; undefined when there is no such thread. */
  async messages(thread: string, agentId: string): Promise<StoredMessage[] | undefined> {
    const body = await this.#threadRead(thread, agentId, "messages");
    if (body === undefined) return undefined;
    const messages = (body as { messages?: unknown }).messages;
    if (Array.isArray(messages)) return messages as StoredMessage[];
    throw new FlowcheckError(
      "target_invalid_answer",
      `the messages of thread ${thread} read ${show(body)}, with no "messages" array; is ${this.#at}baseUrl a Mastra server?`,
    );
  }

  /** The thread's working memory as stored: JSON text for a schema'd one, Markdown otherwise, null when unset. */
  async workingMemory(thread: string, agentId: string): Promise<unknown> {
    const body = await this.#threadRead(thread, agentId, "working-memory");
    return (body as { workingMemory?: unknown } | undefined)?.workingMemory ?? null;
  }

  async #threadRead(thread: string, agentId: string, what: string): Promise<unknown> {
    const query = new URLSearchParams({ agentId, resourceId: this.resource });
    const url = this.#url(`/api/memory/threads/${encodeURIComponent(thread)}/${what}?${query}`);
    try {
      const exchange = await this.#request({ method: "GET", url, made: `${this.#at}resource or ${this.#at}headers` });
      return jsonBodyOf(exchange, `Point ${this.#at}baseUrl at a Mastra server.`);
    } catch (error) {
      if (statusOf(error) === 404) return undefined;
      throw error;
    }
  }

  get #at(): string {
    return `${this.where}.`;
  }

  #url(path: string): string {
    return targetUrl(this.entry.baseUrl, path, this.#at);
  }

  #request(request: {
    method: "GET" | "POST";
    url: string;
    body?: string;
    headers?: Record<string, string>;
    made: string;
  }): Promise<TargetExchange> {
    return httpRequest({
      ...request,
      headers: requestHeaders(request.headers ?? { accept: "application/json" }, this.entry.headers),
      timeoutMs: this.entry.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      at: this.#at,
    });
  }
}

/** The status of a request the server refused; undefined when it failed otherwise (a timeout, no connection). */
function statusOf(error: unknown): number | undefined {
  return isFlowcheckError(error, "target_invalid_answer")
    ? (error.details as RefusedDetails | undefined)?.status
    : undefined;
}
