import type { ModelReply } from "../../engine/chat-model.ts";
import type { SeamApi, SeamRequest } from "./seam-request.ts";

/**
 * One request the app made to the seam, as read off the wire: what a script is asked (`request`,
 * without the context only the run knows), and what the wire needs to answer it in kind.
 */
export interface SeamCall {
  readonly api: SeamApi;
  /** The model the app named (`model` of the body). */
  readonly model: string;
  /** Whether the app asked for server-sent events. */
  readonly stream: boolean;
  /** Chat Completions: whether the app asked for a usage chunk (`stream_options.include_usage`). */
  readonly includeUsage: boolean;
  readonly request: Omit<SeamRequest, "context">;
  /**
   * The body as the app sent it, each Responses `item_reference` replaced by the item the seam
   * answered under that id (so it can be forwarded to a provider that never saw it). A retry sends
   * the same body again.
   */
  readonly body: unknown;
  /**
   * What the seam does not speak in this request, named with its JSON path; set, the call is
   * answered with the provider's 400 error and fails the turn it is credited to. `request` then
   * holds what could be read (its user messages at least, where there were any).
   */
  readonly unsupported?: string;
}

/** Tokens a call used; the seam estimates them when the outcome does not say. */
export interface SeamUsage {
  readonly input: number;
  readonly output: number;
}

/** How the seam answers a call. */
export type SeamOutcome =
  /** The model's reply; `truncated` cuts it off as a provider does at its token limit (`finish_reason: "length"`, `incomplete`). */
  | { readonly reply: ModelReply; readonly truncated?: boolean; readonly usage?: SeamUsage }
  /**
   * A provider's failure: `error` a 500, `rate-limit` a 429 with `Retry-After: 1`, `timeout` the
   * connection held `holdMs` and then reset.
   */
  | { readonly fault: "error" | "rate-limit" | "timeout"; readonly holdMs?: number }
  /** A refusal in the provider's error shape (400 `invalid_request_error`), its message naming why. */
  | { readonly refused: string; readonly code: string };

/** What answers the calls the wire reads: the run, which credits each to a turn and asks its source. */
export interface SeamHandler {
  answer(call: SeamCall): Promise<SeamOutcome>;
}

/**
 * Where a conversation's model calls are answered: its scripts, the live provider, or its
 * cassette. It throws a FlowcheckError when it cannot answer (`script_unmatched`,
 * `cassette_mismatch`, `model_error`); the seam fails the turn with it.
 */
export type SeamSource = (request: SeamRequest, call: SeamCall) => Promise<{ reply: ModelReply; usage?: SeamUsage }>;
