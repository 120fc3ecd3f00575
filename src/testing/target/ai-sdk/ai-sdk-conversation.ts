import { FlowcheckError, isFlowcheckError } from "../../../errors.ts";
import { mediaTypeOf, type Answer } from "../../answer/read-answer.ts";
import { contentTypeCheck, statusCheck } from "../../checks/transport-checks.ts";
import { isSuccessStatus } from "../../scenario/is-success-status.ts";
import type { ScenarioTurn } from "../../scenario/scenario.ts";
import { show } from "../../scenario/show.ts";
import { messageOf, textOnlyReason } from "../../scenario/turn-input.ts";
import { DEFAULT_TIMEOUT_MS } from "../http/http-turn.ts";
import { requestHeaders, targetUrl } from "../http/http-request.ts";
import { pointerBoolean, pointerString } from "../http/pointer-value.ts";
import { readAiSdkUiStream, type AiSdkUiAnswer } from "../http/read-ai-sdk-ui-stream.ts";
import { isToolUIPart, toolNameOf, type UIMessage } from "../http/ui-message.ts";
import { answered, QUOTED_BODY, requestTarget, type TargetExchange } from "../request-target.ts";
import type { ConversationTurn, TargetConversation } from "../target-conversation.ts";
import type { AiSdkTargetEntry } from "./ai-sdk-target-entry.ts";
import { chatId } from "./chat-id.ts";

/** The tool states `useChat` waits on the client in: it runs the tool, or asks the user, before it sends again. */
const WAITING_ON_CLIENT = new Set(["input-streaming", "input-available", "approval-requested", "approval-responded"]);

/**
 * A conversation with a chat route of the AI SDK's UI protocol, as `useChat` holds one: a chat id
 * made here (16 letters and digits, as the SDK's `generateId`), which is the session; the messages
 * as the SDK's client keeps them (each user message a text part and an id, each answer the
 * assistant message rebuilt from its stream); each turn one `POST` as `DefaultChatTransport` sends
 * it, `{ ...body, id, messages, trigger: "submit-message" }`, or with `send: "last"` the persistence
 * guide's `{ ...body, id, message }`. The answer is the UI message stream: its text, the tools it
 * called, and the claims the entry's pointers read from `{ text, metadata, data }`.
 */
export class AiSdkConversation implements TargetConversation {
  readonly #entry: AiSdkTargetEntry;
  /** The target's name in flowcheck.config.json. */
  readonly #name: string;
  /** `targets.<name>`, for the keys messages name. */
  readonly #where: string;
  readonly #chat = chatId();
  readonly #messages: UIMessage[] = [];

  constructor(entry: AiSdkTargetEntry, name: string) {
    this.#entry = entry;
    this.#name = name;
    this.#where = `targets.${name}`;
  }

  /** Holds nothing open between turns: each is a request of its own. */
  close(): void {}

  async send(turn: ScenarioTurn, session: string | undefined): Promise<ConversationTurn> {
    const text = messageOf(turn.input, textOnlyReason("ai-sdk", this.#where));
    this.#refuseWaiting();
    const id = session ?? this.#chat;
    // In the order useChat writes a user message's keys, so the body reads as the SDK's.
    const user: UIMessage = { parts: [{ type: "text", text }], id: chatId(), role: "user" };
    const extra = this.#entry.body ?? {};
    const body = JSON.stringify(
      this.#entry.send === "last"
        ? { ...extra, id, message: user }
        : { ...extra, id, messages: [...this.#messages, user], trigger: "submit-message" },
    );
    const expectedStatus = turn.expectedStatus ?? 200;
    const started = performance.now();
    const headers = requestHeaders({ "content-type": "application/json" }, this.#entry.headers);
    const exchange = await this.#post(body, headers, isSuccessStatus(expectedStatus) ? undefined : expectedStatus);
    const millis = performance.now() - started;
    const read = isSuccessStatus(exchange.status) ? this.#read(exchange) : undefined;
    // An error answer applied nothing: the chat goes on without the message it refused.
    if (read) this.#messages.push(user, read.message);
    const answer = this.#answerOf(exchange, read);
    const url = new URL(exchange.url);
    return {
      exchange: {
        request: {
          method: "POST",
          url: exchange.url,
          path: `${url.pathname}${url.search}`,
          headers,
          body,
        },
        response: { status: exchange.status, headers: exchange.headers, body: exchange.raw },
        millis,
      },
      answer,
      session: id,
      toolCalls: read?.toolCalls ?? [],
      checks: [
        statusCheck(expectedStatus, exchange.status),
        ...(turn.expectContentType === undefined ? [] : [contentTypeCheck(turn.expectContentType, answer)]),
      ],
    };
  }

  get #at(): string {
    return `${this.#where}.`;
  }

  /** The request; its failure names the target, and a refusal what it was sent. */
  async #post(
    body: string,
    headers: Record<string, string>,
    expectedStatus: number | undefined,
  ): Promise<TargetExchange> {
    const at = this.#at;
    try {
      return await requestTarget({
        method: "POST",
        url: targetUrl(this.#entry.baseUrl, this.#entry.path ?? "/api/chat", at),
        headers,
        body,
        timeoutMs: this.#entry.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        ...(expectedStatus === undefined ? {} : { expectedStatus }),
        fixes: {
          slow: `the route may be stuck, or slower than that: raise ${at}timeoutMs in flowcheck.config.json if so.`,
          unreachable: `is the app running? Check ${at}baseUrl in flowcheck.config.json.`,
          refused:
            `It was sent ${show(JSON.parse(body), QUOTED_BODY)}. The route refused it: see its log. The chat id is made ` +
            "as useChat makes it (16 letters and digits), so a route that wants ids of its own making refuses it. A route " +
            `that takes only the new message wants ${at}send "last", one that wants more fields ${at}body, one at ` +
            `another path ${at}path.`,
        },
      });
    } catch (error) {
      if (!isFlowcheckError(error)) throw error;
      throw new FlowcheckError(error.code, `target ${this.#name} (ai-sdk): ${error.message}`, {
        cause: error,
        details: error.details,
      });
    }
  }

  /** The answer as the UI message stream, folded; a body of another type, or a stream the client refuses, fails the turn. */
  #read(exchange: TargetExchange): AiSdkUiAnswer {
    const type = exchange.headers["content-type"] ?? "none";
    const but = `target ${this.#name} (ai-sdk): ${answered(exchange)}`;
    if (!/^\s*text\/event-stream\b/i.test(type)) {
      throw new FlowcheckError(
        "target_invalid_answer",
        `${but} with content-type ${type}, not the UI message stream (text/event-stream) useChat reads: ` +
          `${show(exchange.raw, QUOTED_BODY)}. Point ${this.#at}path at the route that pipes toUIMessageStream to its response.`,
      );
    }
    try {
      // The last message sent is the user's, so the answer is a new assistant message, as in useChat.
      return readAiSdkUiStream(exchange.raw, { messageId: chatId() });
    } catch (error) {
      if (!isFlowcheckError(error, "target_invalid_answer")) throw error;
      throw new FlowcheckError("target_invalid_answer", `${but}, but ${error.message}.`, { cause: error });
    }
  }

  /** What the answer claims (its step and completion, read by the entry's pointers), and its text. */
  #answerOf(exchange: TargetExchange, read: AiSdkUiAnswer | undefined): Answer {
    const claims: Record<string, unknown> = {};
    const { step, completed } = this.#entry.answer ?? {};
    if (read) {
      const but = `target ${this.#name} (ai-sdk): ${answered(exchange)}, but`;
      const at = this.#at;
      if (step !== undefined) claims["currentStep"] = pointerString(read.final, step, `${but} ${at}answer.step`);
      if (completed !== undefined)
        claims["completed"] = pointerBoolean(read.final, completed, `${but} ${at}answer.completed`);
    }
    return {
      mediaType: mediaTypeOf(exchange.headers),
      json: claims,
      events: undefined,
      text: read ? read.text : exchange.raw,
      problems: [],
      claimsOnly: true,
    };
  }

  /**
   * The turn before left a tool call waiting on the client (a tool without `execute`, or one asking
   * for approval). `useChat` would run it or ask the user and send its output before anything else;
   * the history with the call unanswered makes the route's `convertToModelMessages` fail.
   */
  #refuseWaiting(): void {
    const last = this.#messages.at(-1);
    const waiting = last?.parts.find(
      (part) => isToolUIPart(part) && WAITING_ON_CLIENT.has(part.state) && part["providerExecuted"] !== true,
    );
    if (!last || !waiting || !isToolUIPart(waiting)) return;
    throw new FlowcheckError(
      "scenario_failed",
      `target ${this.#name} (ai-sdk): the answer before left the tool call ${toolNameOf(waiting)} ` +
        `(${waiting.toolCallId}) ${waiting.state}, waiting on the client, which would run it or ask the user ` +
        "before sending again; flowcheck supplies no tool output or approval, and the history with the call " +
        "unanswered makes the route fail (MissingToolResultsError). Nothing was sent. End the scenario at the " +
        "turn before, or give the tool an execute function on the server.",
    );
  }
}
