import { randomUUID } from "node:crypto";
import { FlowcheckError, isFlowcheckError } from "../../../errors.ts";
import { mediaTypeOf, type Answer } from "../../answer/read-answer.ts";
import { check, compared, type Check } from "../../checks/check.ts";
import type { ScenarioTurn } from "../../scenario/scenario.ts";
import { show } from "../../scenario/show.ts";
import { messageOf, textOnlyReason } from "../../scenario/turn-input.ts";
import { answered, jsonBodyOf, QUOTED_BODY, type TargetExchange } from "../request-target.ts";
import type { ConversationTurn, TargetConversation } from "../target-conversation.ts";
import { readMastraGenerate, readMastraStream, type MastraAnswer } from "./mastra-answer.ts";
import type { MastraClient } from "./mastra-client.ts";
import { storedTurnProblems } from "./stored-turn-problems.ts";

// The hono adapter streams as text/event-stream; older adapters sent the same frames as text/plain.
const STREAM_TYPES = ["text/event-stream", "text/plain"];

/**
 * A conversation with one agent of a Mastra server: its session is a memory thread whose id is made
 * here, under the entry's resource; each turn sends the new user message alone (the agent's memory
 * holds the rest) to `/stream` or `/generate`, and reads the answer's text and tool calls. After the
 * turn the thread is read back: every message the turn added must be stored and agree with the
 * answer, a persisted check of its own.
 */
export class MastraConversation implements TargetConversation {
  readonly #client: MastraClient;
  readonly #agentId: string;

  constructor(client: MastraClient, agentId: string) {
    this.#client = client;
    this.#agentId = agentId;
  }

  /** Holds nothing open between turns: each is a request of its own. */
  close(): void {}

  async send(turn: ScenarioTurn, session: string | undefined): Promise<ConversationTurn> {
    const input = messageOf(turn.input, textOnlyReason("mastra", `agent ${this.#agentId} of ${this.#client.where}`));
    const thread = session ?? randomUUID();
    const request = this.#client.turnRequest(this.#agentId, thread, input);
    const started = performance.now();
    const exchange = await this.#client.send(this.#agentId, request);
    const millis = performance.now() - started;
    const read = this.#answerOf(exchange);
    const stored = await this.#storedProblem(thread, input, read);
    const url = new URL(request.url);
    const answer: Answer = {
      mediaType: mediaTypeOf(exchange.headers),
      json: undefined,
      events: undefined,
      text: read.text,
      problems: [],
      claimsOnly: true,
    };
    return {
      exchange: {
        request: {
          method: request.method,
          url: request.url,
          path: `${url.pathname}${url.search}`,
          headers: request.headers,
          body: request.body,
        },
        response: { status: exchange.status, headers: exchange.headers, body: exchange.raw },
        millis,
      },
      answer,
      session: thread,
      checks: [statusCheck(turn), check("persisted", "stored messages", stored)],
      toolCalls: read.toolCalls,
    };
  }

  /** What differs between the answer and the messages the thread stored of the turn; undefined when they agree. */
  async #storedProblem(thread: string, input: string, read: MastraAnswer): Promise<string | undefined> {
    const stored = await this.#client.messages(thread, this.#agentId);
    if (stored === undefined) return `thread ${thread} is not stored: does agent ${this.#agentId} have memory?`;
    const problems = storedTurnProblems(stored, input, read);
    return problems.length ? `thread ${thread} disagrees with the answer: ${problems.join("; ")}` : undefined;
  }

  #answerOf(exchange: TargetExchange): MastraAnswer {
    try {
      if ((this.#client.entry.mode ?? "stream") === "generate")
        return readMastraGenerate(jsonBodyOf(exchange, `Is ${this.#client.where}.mode right?`));
      const type = mediaTypeOf(exchange.headers);
      if (!STREAM_TYPES.includes(type))
        throw new FlowcheckError(
          "target_invalid_answer",
          `with content-type ${type}, not a stream of chunks: ${show(exchange.raw, QUOTED_BODY)}`,
        );
      return readMastraStream(exchange.raw);
    } catch (error) {
      if (!isFlowcheckError(error, "target_invalid_answer") || error.message.startsWith(answered(exchange)))
        throw error;
      throw new FlowcheckError("target_invalid_answer", `${answered(exchange)}, but ${error.message}.`, {
        cause: error,
      });
    }
  }
}

/** A Mastra agent answers 200 or fails the request: a turn that expects another status cannot pass. */
function statusCheck(turn: ScenarioTurn): Check {
  const expected = turn.expectedStatus ?? 200;
  return compared(
    "transport",
    "status",
    expected === 200 ? undefined : `expected status ${expected}, but a Mastra agent's turn that answers answers 200`,
    expected,
    200,
  );
}
