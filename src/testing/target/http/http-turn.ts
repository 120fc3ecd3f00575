import { FlowcheckError, isFlowcheckError } from "../../../errors.ts";
import type { CalledTool } from "../../checks/called-tool.ts";
import { mediaTypeOf } from "../../answer/read-answer.ts";
import { isSuccessStatus } from "../../scenario/is-success-status.ts";
import { show } from "../../scenario/show.ts";
import type { HttpAnswerShape, HttpTargetEntry } from "./http-target-entry.ts";
import { answerToolCalls } from "./answer-tool-calls.ts";
import { pointerBoolean, pointerString } from "./pointer-value.ts";
import { readAiSdkUiStream } from "./read-ai-sdk-ui-stream.ts";
import { readOpenAiChatStream } from "./read-openai-chat-stream.ts";
import { renderPath, renderTemplate, type TemplateValues } from "./render-template.ts";
import { answered, jsonBodyOf, QUOTED_BODY, type TargetExchange } from "../request-target.ts";
import { readPointer } from "../json-pointer.ts";
import { httpRequest, requestHeaders, targetUrl } from "./http-request.ts";

/** How long a request to an http target may take unless its entry or the caller says otherwise. */
export const DEFAULT_TIMEOUT_MS = 30_000;

export interface HttpTargetOptions {
  /** Overrides the entry's `timeoutMs`. */
  timeoutMs?: number;
  /** The entry's key in flowcheck.config.json (e.g. `targets.shop`), so messages name the keys to fix in full. */
  where?: string;
  /**
   * The status of an error answer the turn expects (4xx, 5xx): such an answer is returned as it
   * came, its body as its text, and none of the entry's answer pointers is read of it.
   */
  expectedStatus?: number;
  /**
   * The turn's own `accept`, sent instead of the entry's. An answer to it that is neither JSON nor
   * the entry's stream (a CSV, say) is the session rendered: its body is its text, none of the
   * entry's answer pointers is read of it, and its session is `answer.sessionHeader`'s or the one sent.
   */
  accept?: string;
}

/** One turn's answer as an http target gave it, read by the entry's `answer` pointers. */
export interface HttpTurnAnswer {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** The JSON body, or a stream's final object. */
  body: unknown;
  text: string;
  /** The session the answer names, else the one the turn was sent under. */
  session: string | undefined;
  currentStep?: string;
  completed?: boolean;
  /**
   * The tools the turn called, as the answer reports them (its stream's, or what the entry's
   * `answer.toolCalls` reads); undefined when it reports none: the entry reads none of them, or
   * its pointers were not read of this answer (an error status, a rendering the turn asked for).
   */
  toolCalls?: CalledTool[];
  /** The body as it came. */
  raw: string;
  /**
   * The request as sent; its headers include the entry's, whose values every report of the run
   * shows as `[redacted]`.
   */
  request: { method: string; url: string; headers: Record<string, string>; body: string };
}

/** What a stream's reader makes of it: its text, the final object the pointers read, and the tools it reports called. */
interface StreamedAnswer {
  text: string;
  final: Record<string, unknown>;
  toolCalls?: CalledTool[];
}

type AnswerStream = NonNullable<HttpAnswerShape["stream"]>;

const STREAM_READERS: Record<AnswerStream, (body: string) => StreamedAnswer> = {
  "openai-chat": readOpenAiChatStream,
  "ai-sdk-ui": (body) => readAiSdkUiStream(body),
};

function streamedAnswer(exchange: TargetExchange, stream: AnswerStream, at: string): StreamedAnswer {
  const type = exchange.headers["content-type"] ?? "none";
  if (!/^\s*text\/event-stream\b/i.test(type)) {
    throw new FlowcheckError(
      "target_invalid_answer",
      `${answered(exchange)} with content-type ${type}, not the text/event-stream ${at}answer.stream ` +
        `"${stream}" expects: ${show(exchange.raw, QUOTED_BODY)}. Remove ${at}answer.stream if the server answers JSON, ` +
        `or have ${at}turn.body or ${at}headers ask for a stream (such as "stream": true).`,
    );
  }
  try {
    return STREAM_READERS[stream](exchange.raw);
  } catch (error) {
    if (!isFlowcheckError(error, "target_invalid_answer")) throw error;
    throw new FlowcheckError("target_invalid_answer", `${answered(exchange)}, but ${error.message}.`, { cause: error });
  }
}

/** Whether the answer is in a media type the entry's pointers do not read: neither JSON nor its stream. */
function isRendered(exchange: TargetExchange, shape: HttpAnswerShape): boolean {
  const type = mediaTypeOf(exchange.headers);
  return !/^application\/(.+\+)?json$/.test(type) && !(shape.stream !== undefined && type === "text/event-stream");
}

interface ReadAnswer {
  /** The JSON body, or a stream's final object. */
  body: unknown;
  text: string;
  toolCalls?: CalledTool[];
}

/** The answer's body (a stream's final object), its text, and the tools its stream's reader reports called, if any. */
function readBody(exchange: TargetExchange, shape: HttpAnswerShape, at: string): ReadAnswer {
  if (shape.stream) {
    const { text, final, toolCalls } = streamedAnswer(exchange, shape.stream, at);
    return { body: final, text, ...(toolCalls === undefined ? {} : { toolCalls }) };
  }
  const body = jsonBodyOf(
    exchange,
    `Point ${at}baseUrl and ${at}turn.path at the chat API, or set ${at}answer.stream if it answers a stream.`,
  );
  const pointer = shape.text ?? "/response";
  // A chat completion that only calls tools has a null content: no text.
  const found = readPointer(body, pointer);
  if (found.found && found.value === null) return { body, text: "" };
  return {
    body,
    text: pointerString(body, pointer, `${answered(exchange)}, but ${at}answer.text (the answer's text)`),
  };
}

/**
 * The answer read: its body, its text, and the tools it reports called, which the entry's
 * `answer.toolCalls` reads of the body (a stream's final object) when it says where.
 */
function answerOf(exchange: TargetExchange, shape: HttpAnswerShape, at: string): ReadAnswer {
  const read = readBody(exchange, shape, at);
  if (shape.toolCalls === undefined) return read;
  return { ...read, toolCalls: answerToolCalls(read.body, shape.toolCalls, `${answered(exchange)}, but`, at) };
}

function sessionOf(exchange: TargetExchange, body: unknown, shape: HttpAnswerShape, at: string, sent?: string) {
  const but = `${answered(exchange)}, but`;
  if (shape.session !== undefined)
    return pointerString(body, shape.session, `${but} ${at}answer.session (the session id)`);
  if (shape.sessionHeader === undefined) return sent;
  const value = exchange.headers[shape.sessionHeader.toLowerCase()];
  if (value !== undefined && value !== "") return value;
  throw new FlowcheckError(
    "target_invalid_answer",
    `${but} without the header ${shape.sessionHeader} that ${at}answer.sessionHeader names ` +
      `(its headers: ${Object.keys(exchange.headers).join(", ")}). Fix it in flowcheck.config.json.`,
  );
}

/** The request a turn sends, its path and body rendered from the entry's `turn` templates. */
function turnRequest(entry: HttpTargetEntry, values: TemplateValues, at: string, timeoutMs: number, asked?: string) {
  const path = renderPath(entry.turn.path, values, `${at}turn.path`);
  const accept = asked ?? (entry.answer.stream ? "text/event-stream" : "application/json");
  return {
    method: entry.turn.method ?? "POST",
    url: targetUrl(entry.baseUrl, path, at),
    headers: requestHeaders({ "content-type": "application/json", accept }, entry.headers),
    body: JSON.stringify(renderTemplate(entry.turn.body, values, `${at}turn.body`)),
    timeoutMs,
    at,
    made: `${at}turn (its path and body) or ${at}headers`,
  };
}

/**
 * Sends one turn to a team's own chat API as `entry` describes it and reads the answer by its
 * pointers. `turn.session` is the session an earlier answer named (undefined before the server has
 * assigned one), or, for a server that assigns none, an id the caller made for the conversation
 * (`crypto.randomUUID()`). A failed connection or timeout is `target_unreachable`; a status that is
 * not 2xx, a body that is not JSON or not the stream named, or a pointer that finds nothing is
 * `target_invalid_answer`, naming the request, its status, the pointer and the config key to fix.
 *
 * @example
 * const first = await sendHttpTurn(entry, { input: "Ada", session: undefined, messages: [] }, { where: "targets.shop" });
 * const next = await sendHttpTurn(entry, { input: "ada@example.com", session: first.session, messages }, {});
 */
export async function sendHttpTurn(
  entry: HttpTargetEntry,
  turn: TemplateValues,
  options: HttpTargetOptions = {},
): Promise<HttpTurnAnswer> {
  const at = options.where ? `${options.where}.` : "";
  const timeoutMs = options.timeoutMs ?? entry.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const request = turnRequest(entry, turn, at, timeoutMs, options.accept);
  const exchange = await httpRequest({
    ...request,
    ...(options.expectedStatus === undefined ? {} : { expectedStatus: options.expectedStatus }),
  });
  const sent = { method: request.method, url: request.url, headers: request.headers, body: request.body };
  if (!isSuccessStatus(exchange.status)) {
    const { status, headers, raw } = exchange;
    return { status, headers, body: raw, text: raw, session: turn.session, raw, request: sent };
  }
  if (options.accept !== undefined && isRendered(exchange, entry.answer)) {
    const { status, headers, raw } = exchange;
    const { sessionHeader } = entry.answer;
    const session =
      sessionHeader === undefined ? turn.session : sessionOf(exchange, raw, { sessionHeader }, at, turn.session);
    return { status, headers, body: raw, text: raw, session, raw, request: sent };
  }
  const { body, text, toolCalls } = answerOf(exchange, entry.answer, at);
  const but = `${answered(exchange)}, but`;
  const { step, completed } = entry.answer;
  return {
    status: exchange.status,
    headers: exchange.headers,
    body,
    text,
    session: sessionOf(exchange, body, entry.answer, at, turn.session),
    ...(step === undefined
      ? {}
      : { currentStep: pointerString(body, step, `${but} ${at}answer.step (the current step)`) }),
    ...(completed === undefined
      ? {}
      : { completed: pointerBoolean(body, completed, `${but} ${at}answer.completed (whether the run has ended)`) }),
    ...(toolCalls === undefined ? {} : { toolCalls }),
    raw: exchange.raw,
    request: sent,
  };
}
