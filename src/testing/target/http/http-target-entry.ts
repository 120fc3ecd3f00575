import type { StartedAppKeys } from "../start/start-entry.ts";

/** The template of one turn's request: `path` and `body` hold `{{input}}`, `{{session}}`, `{{messages}}`. */
export interface HttpTurnTemplate {
  method?: "POST" | "PUT";
  path: string;
  body: unknown;
}

/**
 * Where each tool call is in an answer that lists them: `path` points at the array of the turn's
 * calls, the others into each item of it.
 */
export interface HttpToolCallPointers {
  /** The array of the calls the turn made (empty when it made none). */
  path: string;
  /** The tool's name, in each item. */
  name: string;
  /** Its arguments (JSON text is parsed), in each item; unset: the answer does not report them. */
  args?: string;
  /** What it returned (JSON text is parsed), in each item; nothing there: the call has not completed. */
  output?: string;
}

/** Where the answer's parts are: JSON Pointers into the JSON body, or into a stream's final object. */
export interface HttpAnswerShape {
  /** Absent: the answer is one JSON body. */
  stream?: "openai-chat" | "ai-sdk-ui";
  /** The answer's text, for a JSON answer (default `/response`); a stream's text is its deltas joined. */
  text?: string;
  /** The session id the server assigned. */
  session?: string;
  /** Or the response header that carries it. */
  sessionHeader?: string;
  step?: string;
  completed?: string;
  /**
   * The tools the turn called: `"openai"`, the calls of a chat completion's
   * `choices[0].message.tool_calls`, or pointers to a list of its own. Unset: the answer reports
   * none, except a stream that carries them (`openai-chat`).
   */
  toolCalls?: "openai" | HttpToolCallPointers;
}

/** The optional endpoint that reads what the server stored of a session. */
export interface HttpStateEndpoint {
  /** A GET path template, `{{session}}` URL-encoded in it. */
  path: string;
  step?: string;
  completed?: string;
  /** The domain state, by step (default: the whole body). */
  state?: string;
}

/** A `"kind": "http"` target of flowcheck.config.json: a team's own chat API, described by templates and pointers. */
export interface HttpTargetEntry extends StartedAppKeys {
  kind: "http";
  baseUrl: string;
  /** Per request; default 30000. */
  timeoutMs?: number;
  /** Already resolved by the config loader. */
  headers?: Record<string, string>;
  turn: HttpTurnTemplate;
  answer: HttpAnswerShape;
  state?: HttpStateEndpoint;
  flows?: Record<string, { steps?: string[] }>;
}
