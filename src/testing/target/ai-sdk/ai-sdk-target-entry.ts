import type { HttpStateEndpoint } from "../http/http-target-entry.ts";
import type { StartedAppKeys } from "../start/start-entry.ts";

/** Where the answer's claims are: JSON Pointers into the stream's final object `{ text, metadata, data }`. */
export interface AiSdkAnswerShape {
  /** The current step's name, e.g. `/metadata/step` or `/data/progress/step`. */
  step?: string;
  /** A boolean that is true once the run has ended. */
  completed?: string;
}

/**
 * A `"kind": "ai-sdk"` target of flowcheck.config.json: a chat route of the Vercel AI SDK's UI
 * protocol, sent what `useChat`'s `DefaultChatTransport` sends and read as its client reads the
 * UI message stream.
 */
export interface AiSdkTargetEntry extends StartedAppKeys {
  kind: "ai-sdk";
  baseUrl: string;
  /** The route's path under baseUrl; default `/api/chat`. */
  path?: string;
  /** Per request; default 30000. */
  timeoutMs?: number;
  /** Already resolved by the config loader. */
  headers?: Record<string, string>;
  /**
   * `all` (default): the whole conversation as `messages`; `last`: only the new message as
   * `message`, for a route that keeps the history.
   */
  send?: "all" | "last";
  /** Fixed fields sent in every request's body beside the chat's own, as the transport's `body` option sends them. */
  body?: Record<string, unknown>;
  answer?: AiSdkAnswerShape;
  /** The optional endpoint that reads what the route stored of a chat, `{{session}}` the chat id. */
  state?: HttpStateEndpoint;
  flows?: Record<string, { steps?: string[] }>;
}
