import type { SeamCall } from "../../src/testing/seam/seam-call.ts";
import type { SeamApi, SeamMessage, SeamRequest } from "../../src/testing/seam/seam-request.ts";

const TOOLS = [
  {
    name: "get_weather",
    description: "The weather in a city.",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
];

/** A message as Chat Completions carries it. */
function chatMessage(message: SeamMessage): unknown {
  if (message.role === "tool") return { role: "tool", tool_call_id: message.toolCallId, content: message.content };
  if (message.role === "assistant" && message.toolCalls?.length) {
    const calls = message.toolCalls.map((call) => ({
      id: call.id,
      type: "function",
      function: { name: call.name, arguments: call.arguments },
    }));
    return { role: "assistant", content: message.content || null, tool_calls: calls };
  }
  return { role: message.role, content: message.content };
}

/**
 * A streamed model call of target `desk` as the wire would read it, its conversation `messages`
 * (a text: one user message), and its body as the app sent it (the body's shape is the API's; the
 * seam forwards it). Responses calls carry user messages only.
 */
export function seamCallOf(
  api: SeamApi,
  messages: string | readonly SeamMessage[],
): { request: SeamRequest; call: SeamCall } {
  const conversation: readonly SeamMessage[] =
    typeof messages === "string" ? [{ role: "user", content: messages }] : messages;
  const read = {
    system: "You forecast the weather.",
    messages: conversation,
    latest: conversation.at(-1),
    tools: TOOLS,
  };
  const body =
    api === "chat"
      ? {
          model: "gpt-4o-mini",
          messages: [{ role: "system", content: read.system }, ...conversation.map(chatMessage)],
          tools: TOOLS.map((tool) => ({ type: "function", function: tool })),
          stream: true,
          stream_options: { include_usage: true },
        }
      : {
          model: "gpt-4o-mini",
          instructions: read.system,
          input: conversation.map((message) => ({ role: message.role, content: message.content })),
          tools: TOOLS.map((tool) => ({ type: "function", ...tool })),
          stream: true,
        };
  return {
    request: { ...read, context: { target: "desk", flow: "Desk", model: "gpt-4o-mini", api } },
    call: { api, model: "gpt-4o-mini", stream: true, includeUsage: api === "chat", request: read, body },
  };
}
