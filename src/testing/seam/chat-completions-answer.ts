import type { SeamAnswer, WrittenAnswer } from "./seam-answer.ts";
import type { SeamIds } from "./seam-ids.ts";
import { serverSentEvents } from "./server-sent-events.ts";

/**
 * A reply as Chat Completions answers it: a `chat.completion`, or with `stream` its chunks (the
 * role, the text, each tool call with its name on its first delta, the finish, the usage chunk
 * when `stream_options.include_usage` asked for it) and `[DONE]`.
 */
export function chatCompletionsAnswer(answer: SeamAnswer, ids: SeamIds): WrittenAnswer {
  const id = ids.next("chatcmpl-");
  return answer.call.stream
    ? { contentType: "text/event-stream", body: serverSentEvents(chunks(answer, id)) }
    : { contentType: "application/json", body: JSON.stringify(completion(answer, id)) };
}

function finishReason({ reply, truncated }: SeamAnswer): string {
  if (truncated) return "length";
  return reply.toolCalls.length > 0 ? "tool_calls" : "stop";
}

function usage({ usage }: SeamAnswer) {
  return { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output };
}

function completion(answer: SeamAnswer, id: string) {
  const { reply } = answer;
  const toolCalls = reply.toolCalls.map((call) => ({
    id: call.id,
    type: "function",
    function: { name: call.name, arguments: call.arguments },
  }));
  const message = {
    role: "assistant",
    content: reply.content === "" && toolCalls.length > 0 ? null : reply.content,
    refusal: null,
    ...(toolCalls.length > 0 && { tool_calls: toolCalls }),
  };
  return {
    id,
    object: "chat.completion",
    created: answer.created,
    model: answer.call.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason(answer) }],
    usage: usage(answer),
  };
}

function chunks(answer: SeamAnswer, id: string): { data: unknown }[] {
  const { reply } = answer;
  const chunk = (delta: object, finish: string | null = null) => ({
    data: {
      id,
      object: "chat.completion.chunk",
      created: answer.created,
      model: answer.call.model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    },
  });
  const deltas: { data: unknown }[] = [chunk({ role: "assistant", content: "" })];
  if (reply.content !== "") deltas.push(chunk({ content: reply.content }));
  reply.toolCalls.forEach((call, index) => {
    deltas.push(
      chunk({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }] }),
    );
    if (call.arguments !== "") deltas.push(chunk({ tool_calls: [{ index, function: { arguments: call.arguments } }] }));
  });
  deltas.push(chunk({}, finishReason(answer)));
  if (answer.call.includeUsage)
    deltas.push({
      data: {
        id,
        object: "chat.completion.chunk",
        created: answer.created,
        model: answer.call.model,
        choices: [],
        usage: usage(answer),
      },
    });
  return [...deltas, { data: "[DONE]" }];
}
