import type { AnsweredItems } from "./answered-items.ts";
import type { SeamAnswer, WrittenAnswer } from "./seam-answer.ts";
import type { SeamIds } from "./seam-ids.ts";
import { serverSentEvents } from "./server-sent-events.ts";
import type { WireObject } from "./wire-object.ts";

/**
 * A reply as the Responses API answers it: a `response` whose output is a message (when there is
 * text, or nothing else) and a `function_call` per tool call, or with `stream` its events, ending
 * in `response.completed` (`response.incomplete` when truncated). Every item is remembered, so a
 * later `item_reference` to it resolves.
 */
export function responsesAnswer(answer: SeamAnswer, ids: SeamIds, answered: AnsweredItems): WrittenAnswer {
  const output = outputItems(answer, ids);
  answered.remember(output);
  const response = responseOf(answer, ids.next("resp_"), output);
  return answer.call.stream
    ? { contentType: "text/event-stream", body: serverSentEvents(events(response, output)) }
    : { contentType: "application/json", body: JSON.stringify(response) };
}

function outputItems({ reply, truncated }: SeamAnswer, ids: SeamIds): WireObject[] {
  const status = truncated ? "incomplete" : "completed";
  const items: WireObject[] = [];
  if (reply.content !== "" || reply.toolCalls.length === 0)
    items.push({
      type: "message",
      id: ids.next("msg_"),
      role: "assistant",
      status,
      content: [{ type: "output_text", text: reply.content, annotations: [] }],
    });
  for (const call of reply.toolCalls)
    items.push({
      type: "function_call",
      id: ids.next("fc_"),
      call_id: call.id,
      name: call.name,
      arguments: call.arguments,
      status,
    });
  return items;
}

function responseOf(answer: SeamAnswer, id: string, output: WireObject[]): WireObject {
  const { usage, truncated } = answer;
  return {
    id,
    object: "response",
    created_at: answer.created,
    model: answer.call.model,
    status: truncated ? "incomplete" : "completed",
    incomplete_details: truncated ? { reason: "max_output_tokens" } : null,
    output,
    usage: {
      input_tokens: usage.input,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: usage.output,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: usage.input + usage.output,
    },
  };
}

/** The events of a streamed response, as the provider sends them: each item added, its deltas, done; then the end. */
function events(response: WireObject, output: WireObject[]): { event: string; data: unknown }[] {
  const started = { ...response, status: "in_progress", incomplete_details: null, output: [], usage: null };
  const sent: WireObject[] = [
    { type: "response.created", response: started },
    { type: "response.in_progress", response: started },
  ];
  output.forEach((item, index) => sent.push(...itemEvents(item, index)));
  sent.push({ type: response["status"] === "incomplete" ? "response.incomplete" : "response.completed", response });
  return sent.map((data, sequence) => ({
    event: data["type"] as string,
    data: { ...data, sequence_number: sequence },
  }));
}

function itemEvents(item: WireObject, output_index: number): WireObject[] {
  const item_id = item["id"];
  if (item["type"] === "function_call") {
    const args = item["arguments"];
    return [
      { type: "response.output_item.added", output_index, item: { ...item, arguments: "", status: "in_progress" } },
      { type: "response.function_call_arguments.delta", item_id, output_index, delta: args },
      { type: "response.function_call_arguments.done", item_id, output_index, arguments: args },
      { type: "response.output_item.done", output_index, item },
    ];
  }
  const part = (item["content"] as WireObject[])[0]!;
  const at = { item_id, output_index, content_index: 0 };
  return [
    { type: "response.output_item.added", output_index, item: { ...item, status: "in_progress", content: [] } },
    { type: "response.content_part.added", ...at, part: { ...part, text: "" } },
    { type: "response.output_text.delta", ...at, delta: part["text"], logprobs: [] },
    { type: "response.output_text.done", ...at, text: part["text"], logprobs: [] },
    { type: "response.content_part.done", ...at, part },
    { type: "response.output_item.done", output_index, item },
  ];
}
