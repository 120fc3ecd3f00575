import { FlowcheckError } from "../../../errors.ts";
import { show } from "../../scenario/show.ts";
import { QUOTED_BODY } from "./pointer-value.ts";

/** A request to an http target and its whole answer. */
export interface TargetExchange {
  method: string;
  url: string;
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** The body as it came. */
  raw: string;
}

export interface TargetRequest {
  method: "GET" | "POST" | "PUT";
  url: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  /** The prefix of the target's keys in flowcheck.config.json (`targets.shop.`, or ""), for messages. */
  at: string;
  /** What to fix when the server refuses the request: the config keys that made it. */
  made: string;
  /** A status that is not 2xx but expected (a scenario turn that expects an error): returned, not thrown. */
  expectedStatus?: number;
}

/**
 * The headers a request sends: `own` under the entry's configured ones, which win. Names are
 * lower-cased first, since fetch would join `Accept` and `accept` into one header of both values.
 */
export function requestHeaders(
  own: Record<string, string>,
  configured: Record<string, string> = {},
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of [...Object.entries(own), ...Object.entries(configured)])
    headers[name.toLowerCase()] = value;
  return headers;
}

/** `POST http://…/chat answered 200`, how every message about an answer begins. */
export function answered(exchange: TargetExchange): string {
  return `${exchange.method} ${exchange.url} answered ${exchange.status}`;
}

/** `path` under `baseUrl` (`at` prefixes the target's keys in messages), keeping a base path (`http://h/api` + `/chat` is `http://h/api/chat`). */
export function targetUrl(baseUrl: string, path: string, at: string): string {
  const url = `${baseUrl.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`;
  if (!URL.canParse(url)) {
    throw new FlowcheckError(
      "config_invalid",
      `flowcheck.config.json: ${at}baseUrl ${show(baseUrl)} and the path ${show(path)} make ${show(url)}, ` +
        "which is not a URL; baseUrl is like http://127.0.0.1:8000.",
    );
  }
  return url;
}

function codeOf(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: unknown; errors?: { code?: unknown }[] } }).cause;
  const code = cause?.code ?? cause?.errors?.[0]?.code;
  return typeof code === "string" ? code : undefined;
}

function unreachable(request: TargetRequest, error: unknown): FlowcheckError {
  const sent = `${request.method} ${request.url}`;
  if ((error as Error).name === "TimeoutError") {
    return new FlowcheckError(
      "target_unreachable",
      `${sent} gave no whole answer within ${request.timeoutMs} ms; the server may be stuck, or slower than that: ` +
        `raise ${request.at}timeoutMs in flowcheck.config.json if so.`,
      { cause: error },
    );
  }
  const code = codeOf(error) ?? (error as Error).message;
  return new FlowcheckError(
    "target_unreachable",
    `${sent} could not be reached (${code}); is the server running? Check ${request.at}baseUrl in flowcheck.config.json.`,
    { cause: error },
  );
}

/**
 * Sends one request to an http target and reads its whole answer within `timeoutMs`. A connection
 * that fails or an answer that does not come in time is `target_unreachable`; a status that is not
 * 2xx, unless it is the `expectedStatus`, is `target_invalid_answer`, quoting the body.
 */
export async function requestTarget(request: TargetRequest): Promise<TargetExchange> {
  const { method, url, headers, body } = request;
  let exchange: TargetExchange;
  try {
    // The timeout covers the body too: a stream that never ends fails like a server that never answers.
    const response = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(request.timeoutMs) });
    const raw = await response.text();
    exchange = { method, url, status: response.status, headers: Object.fromEntries(response.headers), raw };
  } catch (error) {
    throw unreachable(request, error);
  }
  if ((exchange.status < 200 || exchange.status > 299) && exchange.status !== request.expectedStatus) {
    throw new FlowcheckError(
      "target_invalid_answer",
      `${answered(exchange)}: ${show(exchange.raw, QUOTED_BODY)}. The server refused the request: see its log, ` +
        `and if the request is wrong fix ${request.made} in flowcheck.config.json.`,
      { details: { status: exchange.status } },
    );
  }
  return exchange;
}

/** The answer's body as JSON, else `target_invalid_answer` quoting it; `expected` says why JSON was wanted. */
export function jsonBodyOf(exchange: TargetExchange, expected: string): unknown {
  try {
    return JSON.parse(exchange.raw);
  } catch {
    const type = exchange.headers["content-type"] ?? "none";
    throw new FlowcheckError(
      "target_invalid_answer",
      `${answered(exchange)} with a body that is not JSON (content-type ${type}): ${show(exchange.raw, QUOTED_BODY)}. ` +
        expected,
    );
  }
}
