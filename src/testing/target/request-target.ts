import { FlowcheckError } from "../../errors.ts";
import { show } from "../scenario/show.ts";

/** How much of a body an error quotes. */
export const QUOTED_BODY = 300;

/** A request to a target and its whole answer. */
export interface TargetExchange {
  method: string;
  url: string;
  status: number;
  /** The status's reason phrase, e.g. `Not Found` (none over HTTP/2). */
  statusText: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** The body as it came. */
  raw: string;
}

/** What to do, by how a request failed: each ends its error's message, so it names the target's own keys. */
export interface RequestFixes {
  /** No whole answer came within `timeoutMs`. */
  slow: string;
  /** The connection failed (refused, no such host). */
  unreachable: string;
  /** The server answered a status that is not 2xx. */
  refused: string;
}

export interface TargetRequest {
  method: "GET" | "POST" | "PUT";
  url: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  fixes: RequestFixes;
  /** A status that is not 2xx but expected (a scenario turn that expects an error): returned, not thrown. */
  expectedStatus?: number;
}

/**
 * What a `target_invalid_answer` for a status that is not 2xx carries, so a caller can tell a 404
 * from the rest, and a report can show what was sent and what came back.
 */
export interface RefusedDetails {
  status: number;
  body: string;
  /** The answer's headers, lower-case names. */
  headers: Record<string, string>;
  /** The request as it was sent. */
  request: { method: string; url: string; headers: Record<string, string>; body: string };
}

/** The refusal `error` carries (a status that is not 2xx), if it is one: what was sent and what came back. */
export function refusalOf(error: unknown): RefusedDetails | undefined {
  const details = error instanceof FlowcheckError ? (error.details as Partial<RefusedDetails> | undefined) : undefined;
  return typeof details?.status === "number" && details.request !== undefined ? (details as RefusedDetails) : undefined;
}

/** `POST http://…/chat answered 200`, how every message about an answer begins. */
export function answered(exchange: Pick<TargetExchange, "method" | "url" | "status">): string {
  return `${exchange.method} ${exchange.url} answered ${exchange.status}`;
}

/**
 * Sends one request to a target (an http API, a LangGraph server) and reads its whole answer within
 * `timeoutMs`. A connection that fails or an answer that does not come in time is
 * `target_unreachable`; a status that is not 2xx, unless it is the `expectedStatus`, is
 * `target_invalid_answer` quoting the body, its details `RefusedDetails`. Each message names the
 * request and ends with the matching one of `fixes`.
 *
 * @example
 * const exchange = await requestTarget({ method: "GET", url, headers: {}, timeoutMs: 30_000, fixes });
 * const body = jsonBodyOf(exchange, "Point targets.shop.state.path at an endpoint that answers JSON.");
 */
export async function requestTarget(request: TargetRequest): Promise<TargetExchange> {
  const { method, url, headers, body } = request;
  let exchange: TargetExchange;
  try {
    // The timeout covers the body too: a stream that never ends fails like a server that never answers.
    const response = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(request.timeoutMs) });
    const raw = await response.text();
    exchange = {
      method,
      url,
      status: response.status,
      statusText: response.statusText,
      headers: Object.fromEntries(response.headers),
      raw,
    };
  } catch (error) {
    throw unreachable(request, error);
  }
  if ((exchange.status < 200 || exchange.status > 299) && exchange.status !== request.expectedStatus) {
    const details: RefusedDetails = {
      status: exchange.status,
      body: exchange.raw,
      headers: exchange.headers,
      request: { method, url, headers, body: body ?? "" },
    };
    throw new FlowcheckError(
      "target_invalid_answer",
      `${answered(exchange)}${exchange.statusText ? ` ${exchange.statusText}` : ""}: ${show(exchange.raw, QUOTED_BODY)}. ` +
        request.fixes.refused,
      { details },
    );
  }
  return exchange;
}

/** The answer's body as JSON, else `target_invalid_answer` quoting it; `expected` says what to do. */
export function jsonBodyOf(exchange: TargetExchange, expected: string): unknown {
  try {
    return JSON.parse(exchange.raw);
  } catch {
    const type = exchange.headers["content-type"] ?? "none";
    throw new FlowcheckError(
      "target_invalid_answer",
      `${answered(exchange)} with a body that is not JSON (content-type ${type}): ${show(exchange.raw, QUOTED_BODY)}. ` +
        expected,
      { details: { status: exchange.status, body: exchange.raw } },
    );
  }
}

function unreachable(request: TargetRequest, error: unknown): FlowcheckError {
  const sent = `${request.method} ${request.url}`;
  if ((error as Error).name === "TimeoutError") {
    return new FlowcheckError(
      "target_unreachable",
      `${sent} gave no whole answer within ${request.timeoutMs} ms; ${request.fixes.slow}`,
      { cause: error },
    );
  }
  return new FlowcheckError(
    "target_unreachable",
    `${sent} could not be reached (${codeOf(error) ?? (error as Error).message}); ${request.fixes.unreachable}`,
    { cause: error },
  );
}

/** fetch rejects with "fetch failed" and puts the socket's error (ECONNREFUSED, ENOTFOUND, …) in its cause. */
function codeOf(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: unknown; errors?: { code?: unknown }[]; message?: unknown } }).cause;
  const code = cause?.code ?? cause?.errors?.[0]?.code ?? cause?.message;
  return typeof code === "string" ? code : undefined;
}
