import type { ModelReply } from "../../engine/chat-model.ts";
import type { SeamRequest } from "./seam-request.ts";
import type { SeamUsage } from "./seam-call.ts";

/**
 * Tokens as a provider would count them, roughly (a token is about four characters of English):
 * every answer carries usage, since the SDKs read it, and a source that knows none leaves it to this.
 */
export function estimatedUsage(request: Omit<SeamRequest, "context">, reply: ModelReply): SeamUsage {
  let sent = request.system.length;
  for (const message of request.messages) {
    sent += message.content.length;
    if (message.role === "assistant")
      for (const call of message.toolCalls ?? []) sent += call.name.length + call.arguments.length;
  }
  let answered = reply.content.length;
  for (const call of reply.toolCalls) answered += call.name.length + call.arguments.length;
  return { input: Math.ceil(sent / 4), output: Math.ceil(answered / 4) };
}
