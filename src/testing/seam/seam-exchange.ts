import type { ModelReply } from "../../engine/chat-model.ts";
import { AnsweredItems } from "./answered-items.ts";
import { chatCompletionsAnswer } from "./chat-completions-answer.ts";
import { estimatedUsage } from "./estimated-usage.ts";
import { providerError } from "./provider-error.ts";
import type { SeamResponse } from "./seam-response.ts";
import { readChatCompletions } from "./read-chat-completions.ts";
import { readResponses } from "./read-responses.ts";
import { responsesAnswer } from "./responses-answer.ts";
import type { SeamCall, SeamHandler, SeamOutcome } from "./seam-call.ts";
import { SeamIds } from "./seam-ids.ts";
import { isWireObject } from "./wire-object.ts";

const ROUTES = { "/v1/chat/completions": "chat", "/v1/responses": "responses" } as const;

/** How long a `timeout` fault holds the connection before resetting it, unless the outcome says. */
const DEFAULT_HOLD_MS = 2000;

/**
 * The seam's HTTP exchange without the socket: a request's method, URL and body in, what to send
 * back out. It reads each call, asks the handler, and writes the outcome in the API the call came
 * in; its ids and the items it answered last as long as it does.
 */
export class SeamExchange {
  readonly #handler: SeamHandler;
  readonly #ids = new SeamIds();
  readonly #answered = new AnsweredItems();

  constructor(handler: SeamHandler) {
    this.#handler = handler;
  }

  async respond(method: string, url: string, text: string): Promise<SeamResponse> {
    const path = new URL(url, "http://seam").pathname;
    const api = Object.hasOwn(ROUTES, path) ? ROUTES[path as keyof typeof ROUTES] : undefined;
    if (method !== "POST" || api === undefined)
      return providerError(404, {
        message:
          `flowcheck's model seam serves POST /v1/chat/completions and POST /v1/responses, not ${method} ${path}; ` +
          "point the app's base URL at the seam's, which ends in /v1.",
        type: "invalid_request_error",
        code: "unknown_url",
      });
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (error) {
      return invalidBody(`the body is not JSON (${(error as Error).message})`);
    }
    if (!isWireObject(body)) return invalidBody("the body is not a JSON object");
    const call = api === "chat" ? readChatCompletions(body) : readResponses(body, this.#answered);
    return this.#answer(call);
  }

  async #answer(call: SeamCall): Promise<SeamResponse> {
    let outcome: SeamOutcome;
    try {
      outcome = await this.#handler.answer(call);
    } catch (error) {
      const message = `flowcheck's model seam failed to answer: ${(error as Error)?.message ?? String(error)}`;
      return providerError(500, { message, type: "server_error", code: "seam_failed" });
    }
    if (call.unsupported !== undefined)
      return providerError(400, {
        message: call.unsupported,
        type: "invalid_request_error",
        code: "unsupported_value",
      });
    if ("refused" in outcome)
      return providerError(400, { message: outcome.refused, type: "invalid_request_error", code: outcome.code });
    if ("fault" in outcome) return faultResponse(outcome);
    return this.#replied(call, outcome);
  }

  #replied(call: SeamCall, outcome: Extract<SeamOutcome, { reply: ModelReply }>): SeamResponse {
    const answer = {
      call,
      reply: outcome.reply,
      truncated: outcome.truncated === true,
      usage: outcome.usage ?? estimatedUsage(call.request, outcome.reply),
      created: Math.floor(Date.now() / 1000),
    };
    const written =
      call.api === "chat"
        ? chatCompletionsAnswer(answer, this.#ids)
        : responsesAnswer(answer, this.#ids, this.#answered);
    const headers: Record<string, string> = { "content-type": written.contentType };
    if (call.stream) headers["cache-control"] = "no-cache";
    return { status: 200, headers, body: written.body };
  }
}

function invalidBody(what: string): SeamResponse {
  return providerError(400, {
    message: `flowcheck's model seam could not read the request: ${what}; send the body as a JSON object.`,
    type: "invalid_request_error",
    code: "invalid_json",
  });
}

/** A provider's failure as it arrives: a 500, a 429 saying when to retry (both headers the SDKs read), or a connection held then reset. */
function faultResponse(outcome: Extract<SeamOutcome, { fault: string }>): SeamResponse {
  if (outcome.fault === "timeout") return { holdMs: outcome.holdMs ?? DEFAULT_HOLD_MS };
  if (outcome.fault === "rate-limit")
    return providerError(
      429,
      {
        message: "Rate limit reached (a fault the scenario asked for).",
        type: "requests",
        code: "rate_limit_exceeded",
      },
      { "retry-after": "1", "retry-after-ms": "1000" },
    );
  return providerError(500, {
    message: "The server had an error while processing your request (a fault the scenario asked for).",
    type: "server_error",
    code: null,
  });
}
