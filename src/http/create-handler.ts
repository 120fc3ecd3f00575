import { Buffer } from "node:buffer";
import { FlowcheckError, isFlowcheckError } from "../errors.ts";
import type { ChatRequest, FlowEngine, TurnOutcome } from "../engine/flow-engine.ts";
import { acceptedTypes, BUILT_IN_TYPES } from "./accepted-types.ts";
import { answerSession, sessionIdOf } from "./answer-session.ts";
import { eventStreamResponse } from "./event-stream.ts";
import { headerValue, MAX_BODY_BYTES, type HttpRequest, type HttpResponse } from "./http-exchange.ts";
import { idempotencyKeyOf } from "./idempotency-key.ts";
import { errorResponse, jsonResponse } from "./json-response.ts";
import { parseChatRequest } from "./parse-chat-request.ts";
import { renderedResponse } from "./rendered-response.ts";

export type Handler = (request: HttpRequest) => Promise<HttpResponse>;

const ROUTES: Record<string, string> = { "/ai/flows": "GET", "/ai/chat": "POST" };

function isJson(contentType: string | undefined): boolean {
  return /^application\/json\s*(;|$)/i.test(contentType ?? "");
}

/** Errors that belong to an existing session carry its id, like every other answer about it. */
function sessionOfError(error: unknown, request: ChatRequest): string | undefined {
  if (request.session === undefined) return undefined;
  return isFlowcheckError(error, "session_not_found") || isFlowcheckError(error, "invalid_request")
    ? undefined
    : request.session;
}

/** The route a request target names; a target that is no URL path (e.g. `//[`) is one that does not exist. */
function pathOf(url: string): string {
  // A route's own path, as clients send it, needs no parsing.
  if (Object.hasOwn(ROUTES, url)) return url;
  return URL.canParse(url, "http://flowcheck.invalid") ? new URL(url, "http://flowcheck.invalid").pathname : url;
}

/** The chat request in a POST's body, or the error that says what is wrong with it. */
function chatRequestOf(request: HttpRequest): ChatRequest {
  if (Buffer.byteLength(request.body) > MAX_BODY_BYTES) {
    throw new FlowcheckError("body_too_large", `The body is over ${MAX_BODY_BYTES} bytes; send a shorter message.`);
  }
  const contentType = headerValue(request, "content-type");
  if (!isJson(contentType)) {
    throw new FlowcheckError(
      "unsupported_media_type",
      `The body's Content-Type is ${contentType ? `"${contentType}"` : "missing"}; send JSON with Content-Type: application/json.`,
    );
  }
  return parseChatRequest(request);
}

/**
 * The turn's answer in the first accepted type it can be given in: the flow's rendering of the
 * session (made before the turn is saved), an event stream, or JSON, the default.
 */
function turnAnswer(
  outcome: TurnOutcome,
  accepted: readonly string[],
  render: (mediaType: string) => string | undefined,
): HttpResponse {
  for (const type of accepted) {
    if (type === "text/event-stream") return eventStreamResponse(outcome);
    if (BUILT_IN_TYPES.has(type)) break;
    const body = render(type);
    if (body !== undefined) return renderedResponse({ mediaType: type, body }, outcome.session);
  }
  return jsonResponse(200, { success: true, ...outcome }, outcome.session);
}

interface Route {
  path: string;
  /** For `GET /ai/sessions/:id`, the id. */
  session?: string;
}

/** The route a request is for; `not_found` when there is none, `method_not_allowed` (with the method allowed) for another method. */
function routeOf(request: HttpRequest): Route {
  const path = pathOf(request.url);
  const session = ROUTES[path] === undefined ? sessionIdOf(path) : undefined;
  const method = session === undefined ? ROUTES[path] : "GET";
  if (method === undefined) {
    throw new FlowcheckError(
      "not_found",
      `There is no route ${path}; the routes are GET /ai/flows, POST /ai/chat and GET /ai/sessions/:id.`,
    );
  }
  if (request.method !== method) {
    throw new FlowcheckError("method_not_allowed", `${path} answers ${method} only, not ${request.method}.`, {
      details: { allow: method },
    });
  }
  return session === undefined ? { path } : { path, session };
}

export interface HandlerOptions {
  /** Where a 500's details go. Default: `console.error`. */
  log?: ((message: string) => void) | undefined;
}

/**
 * The HTTP API as a function from request to response: `GET /ai/flows`, `POST /ai/chat` and
 * `GET /ai/sessions/:id`.
 * A client's mistake always gets its 4xx code; only a bug is a 500, and it is logged.
 */
export function createHandler(engine: FlowEngine, options: HandlerOptions = {}): Handler {
  const { log = console.error } = options;
  // A 500 tells the client only that the log has the details, so every 500 must reach the log.
  function logged(response: HttpResponse, error: unknown, route: string): HttpResponse {
    if (response.status === 500) log(`${route} failed: ${(error as Error).stack ?? String(error)}`);
    return response;
  }

  async function chat(request: HttpRequest): Promise<HttpResponse> {
    let chatRequest: ChatRequest;
    let key: ReturnType<typeof idempotencyKeyOf>;
    try {
      chatRequest = chatRequestOf(request);
      key = idempotencyKeyOf(request);
    } catch (error) {
      return logged(errorResponse(error), error, "POST /ai/chat");
    }
    try {
      // Made before the turn is saved, so that a keyed turn's answer is saved with it, and a
      // renderer that throws leaves the turn unapplied.
      const accepted = acceptedTypes(request);
      return await engine.answer(chatRequest, (outcome, render) => turnAnswer(outcome, accepted, render), key);
    } catch (error) {
      return logged(errorResponse(error, sessionOfError(error, chatRequest)), error, "POST /ai/chat");
    }
  }

  const session = (request: HttpRequest, id: string): Promise<HttpResponse> =>
    answerSession(engine, id, request).catch((error: unknown) =>
      logged(
        errorResponse(error, isFlowcheckError(error, "session_not_found") ? undefined : id),
        error,
        "GET /ai/sessions/:id",
      ),
    );

  // Not async: a chat turn's promise is chat's own, with no layer around it.
  return function handle(request: HttpRequest): Promise<HttpResponse> {
    let route: Route;
    try {
      route = routeOf(request);
    } catch (error) {
      const response = logged(errorResponse(error), error, `${request.method} ${request.url}`);
      if (isFlowcheckError(error, "method_not_allowed"))
        response.headers["Allow"] = (error.details as { allow: string }).allow;
      return Promise.resolve(response);
    }
    if (route.session !== undefined) return session(request, route.session);
    return route.path === "/ai/flows"
      ? Promise.resolve(jsonResponse(200, { flows: engine.listFlows() }))
      : chat(request);
  };
}
