import { FlowcheckError } from "../errors.ts";
import type { ChatRequest } from "../engine/flow-engine.ts";
import { compileSchema } from "../engine/schema-validator.ts";
import { headerValue, SESSION_HEADER, type HttpRequest } from "./http-exchange.ts";

export const MAX_MESSAGE_CHARS = 8000;
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const KEYS = ["flow", "session", "message"];

const validateBody = compileSchema<ChatRequest>({
  type: "object",
  properties: {
    flow: { type: "string", minLength: 1, maxLength: 200 },
    session: { type: "string" },
    message: { type: "string", minLength: 1, maxLength: MAX_MESSAGE_CHARS, pattern: "\\S" },
  },
  required: ["message"],
  additionalProperties: false,
});

function describeType(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
}

function problemsOf(body: Record<string, unknown>): string[] {
  return (validateBody.errors ?? []).map((error) => {
    const key = error.instancePath.slice(1);
    const value = body[key];
    switch (error.keyword) {
      case "required":
        return `"message" is missing: send {"message": "…"} with the user's text.`;
      case "additionalProperties":
        return `"${String(error.params["additionalProperty"])}" is not a known key; the keys are ${KEYS.join(", ")}.`;
      case "type":
        return `"${key}" must be a string, got ${describeType(value)}.`;
      case "maxLength":
        return `"${key}" is ${(value as string).length} characters; at most ${String(error.params["limit"])} are allowed.`;
      default:
        return `"${key}" must not be empty or only spaces.`;
    }
  });
}

/** The chat request in a POST /ai/chat, or an `invalid_json` / `invalid_request` error saying why not. */
export function parseChatRequest(request: HttpRequest): ChatRequest {
  let body: unknown;
  try {
    body = JSON.parse(request.body);
  } catch (error) {
    throw new FlowcheckError(
      "invalid_json",
      `The body is not valid JSON (${(error as Error).message}). Send a JSON object such as {"flow":"BasicFlow","message":"Hi"}.`,
    );
  }
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new FlowcheckError(
      "invalid_request",
      `The body must be a JSON object, got ${describeType(body)}. Send {"flow":"…","message":"…"}.`,
    );
  }
  if (!validateBody(body)) {
    throw new FlowcheckError("invalid_request", problemsOf(body as Record<string, unknown>).join(" "));
  }
  const fromHeader = headerValue(request, SESSION_HEADER);
  if (fromHeader !== undefined && body.session !== undefined && fromHeader !== body.session) {
    throw new FlowcheckError(
      "invalid_request",
      `The ${SESSION_HEADER} header ("${fromHeader}") and "session" in the body ("${body.session}") differ; ` +
        `send one, or the same id in both.`,
    );
  }
  const session = fromHeader ?? body.session;
  if (session !== undefined && !SESSION_ID.test(session)) {
    throw new FlowcheckError(
      "invalid_request",
      `"${session.slice(0, 80)}" is not a session id; use the id a previous answer returned, or none to start a session.`,
    );
  }
  return {
    message: body.message,
    ...(body.flow !== undefined ? { flow: body.flow } : {}),
    ...(session !== undefined ? { session } : {}),
  };
}
