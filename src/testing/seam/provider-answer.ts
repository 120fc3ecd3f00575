import type { ModelReply } from "../../engine/chat-model.ts";
import type { SeamUsage } from "./seam-call.ts";
import type { SeamApi } from "./seam-request.ts";

/** A Chat Completions answer, the parts read. */
interface ChatAnswer {
  choices?: {
    message?: {
      content?: string | null;
      tool_calls?: { id: string; function: { name: string; arguments: string } }[];
    };
  }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

/** A Responses API answer, the parts read: its output items, of which messages and function calls. */
interface ResponsesAnswer {
  output?: (
    | { type: "message"; content?: { type: string; text?: string }[] }
    | { type: "function_call"; call_id: string; name: string; arguments: string }
    | { type: string }
  )[];
  usage?: { input_tokens?: number; output_tokens?: number };
}

function chatReply(answer: ChatAnswer): ModelReply {
  const message = answer.choices?.[0]?.message;
  return {
    content: message?.content ?? "",
    toolCalls: (message?.tool_calls ?? []).map((call) => ({
      id: call.id,
      name: call.function.name,
      arguments: call.function.arguments,
    })),
  };
}

function responsesReply(answer: ResponsesAnswer): ModelReply {
  const reply: ModelReply = { content: "", toolCalls: [] };
  for (const item of answer.output ?? []) {
    if (item.type === "message" && "content" in item)
      reply.content += (item.content ?? []).map((part) => (part.type === "output_text" ? part.text : "")).join("");
    // The app sends a call's result back under its `call_id`; the item's own `id` is the provider's.
    if (item.type === "function_call" && "call_id" in item)
      reply.toolCalls.push({ id: item.call_id, name: item.name, arguments: item.arguments });
  }
  return reply;
}

function usageOf(api: SeamApi, body: ChatAnswer & ResponsesAnswer): SeamUsage | undefined {
  const usage = body.usage;
  if (!usage) return undefined;
  return api === "chat"
    ? { input: usage.prompt_tokens ?? 0, output: usage.completion_tokens ?? 0 }
    : { input: usage.input_tokens ?? 0, output: usage.output_tokens ?? 0 };
}

/**
 * A provider's non-streamed answer to a call of `api`, read back into the reply the seam answers
 * the app with: the text, the tool calls with the ids the app will send their results under, and
 * the tokens it used when the provider says.
 */
export function providerAnswer(api: SeamApi, body: unknown): { reply: ModelReply; usage?: SeamUsage } {
  const answer = body as ChatAnswer & ResponsesAnswer;
  const reply = api === "chat" ? chatReply(answer) : responsesReply(answer);
  const usage = usageOf(api, answer);
  return usage ? { reply, usage } : { reply };
}
