import type { ModelReply } from "../../engine/chat-model.ts";
import type { SeamCall, SeamUsage } from "./seam-call.ts";

/** A reply to write back in the API and form (JSON or events) the call came in. */
export interface SeamAnswer {
  readonly call: SeamCall;
  readonly reply: ModelReply;
  /** Cut off at the token limit: `finish_reason: "length"`, or `incomplete` in the Responses API. */
  readonly truncated: boolean;
  readonly usage: SeamUsage;
  /** Unix seconds, as the provider stamps `created` / `created_at`. */
  readonly created: number;
}

/** A written answer: its content type and the whole body. */
export interface WrittenAnswer {
  readonly contentType: string;
  readonly body: string;
}
