import type { ModelReply } from "../../engine/chat-model.ts";

/**
 * The reply as a provider cuts it off at its token limit, for a turn's `truncated` fault: the first
 * half of its text (by characters, so no character is split) and no tool calls. The calls are
 * dropped rather than cut because a cut call is what `malformed-tool-call` plays, and an SDK reading
 * `finish_reason: "length"` handles an unfinished call its own way (some drop it, some fail it):
 * the fault proves the app copes with an answer that stopped, whatever its SDK does with a half call.
 */
export function truncatedReply(reply: ModelReply): ModelReply {
  const characters = Array.from(reply.content);
  return { content: characters.slice(0, Math.ceil(characters.length / 2)).join(""), toolCalls: [] };
}
