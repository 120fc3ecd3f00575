import { FlowcheckError } from "../errors.ts";
import type { TurnKey } from "../engine/turn-keys.ts";
import { headerValue, type HttpRequest, type HttpResponse } from "./http-exchange.ts";

/** The request header that names a turn, so that sending it again does not apply it again. */
export const IDEMPOTENCY_HEADER = "Idempotency-Key";

/** Set on an answer that is the kept answer of an earlier request under the same key. */
export const REPLAYED_HEADER = "Idempotent-Replayed";

export const MAX_KEY_CHARS = 255;

// Visible ASCII but the quote and the backslash: a key is then the same in a log, a header and a
// structured-field string, and holds no space.
const KEY = new RegExp(`^[\\x21\\x23-\\x5b\\x5d-\\x7e]{1,${MAX_KEY_CHARS}}$`);

function isHttpResponse(value: unknown): value is HttpResponse {
  const answer = value as Partial<HttpResponse> | null;
  const body = answer?.body;
  return (
    typeof answer?.status === "number" &&
    answer.headers !== null &&
    typeof answer.headers === "object" &&
    (typeof body === "string" || (Array.isArray(body) && body.every((chunk) => typeof chunk === "string")))
  );
}

/** The kept answer as it was sent, marked as given again; a kept answer that is not one is a damaged store. */
function replay(kept: unknown): HttpResponse {
  if (!isHttpResponse(kept)) {
    throw new FlowcheckError(
      "internal_error",
      `The answer kept under an ${IDEMPOTENCY_HEADER} is not an HTTP answer: ${JSON.stringify(kept)?.slice(0, 200)}.`,
    );
  }
  return { status: kept.status, headers: { ...kept.headers, [REPLAYED_HEADER]: "true" }, body: kept.body };
}

/**
 * The request's `Idempotency-Key`, as the engine's key for its turn; undefined without the header.
 * The draft standard's structured-field form (`"…"`, quoted) names the same key as the bare one.
 */
export function idempotencyKeyOf(request: HttpRequest): TurnKey<HttpResponse> | undefined {
  const sent = headerValue(request, IDEMPOTENCY_HEADER);
  if (sent === undefined) return undefined;
  const value = /^".*"$/.test(sent) ? sent.slice(1, -1) : sent;
  if (!KEY.test(value)) {
    const shown =
      sent.length > 80 ? `${JSON.stringify(sent.slice(0, 80))}… (${sent.length} characters)` : JSON.stringify(sent);
    throw new FlowcheckError(
      "invalid_request",
      `The ${IDEMPOTENCY_HEADER} header ${shown} is not a key: send one key of 1 to ${MAX_KEY_CHARS} visible ASCII characters, ` +
        "without spaces, quotes or backslashes (a UUID, say), the same for each retry of a turn and a new one for each turn.",
    );
  }
  return { value, replay };
}
