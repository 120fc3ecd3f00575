import type { CalledTool } from "../../checks/called-tool.ts";
import { toolCallArgs } from "../../checks/tool-call-values.ts";
import { show } from "../../scenario/show.ts";
import { invalidStream, jsonDataEvents } from "./json-data-events.ts";
import { QUOTED_BODY } from "../request-target.ts";

const STREAM = "openai-chat";

/** A tool call as a chat completion's message holds it, folded from its deltas. */
interface MessageToolCall {
  id?: string;
  type?: string;
  function?: { name: string; arguments: string };
}

interface ToolCallDelta {
  index?: unknown;
  id?: unknown;
  type?: unknown;
  function?: { name?: unknown; arguments?: unknown } | null;
}

/** The chunk's first choice (undefined in a chunk of none, such as the usage chunk), else an error naming the chunk. */
function choiceOf(chunk: Record<string, unknown>, index: number): { delta?: Record<string, unknown> } | undefined {
  if (chunk["error"] !== undefined) {
    throw invalidStream(`chunk ${index + 1} of the ${STREAM} stream is an error: ${show(chunk["error"], QUOTED_BODY)}`);
  }
  const choices = chunk["choices"];
  if (!Array.isArray(choices)) {
    throw invalidStream(
      `chunk ${index + 1} of the ${STREAM} stream has no "choices" array: ${show(chunk, QUOTED_BODY)}; ` +
        'expected chat.completion.chunk objects ({"choices":[{"delta":{"content":"…"}}]})',
    );
  }
  return choices[0] as { delta?: Record<string, unknown> } | undefined;
}

/**
 * Adds a chunk's `delta.tool_calls` to `calls` as openai-node's ChatCompletionStream does: by
 * `index`, the id and type set, the function's name set and its arguments appended.
 */
function foldToolCalls(calls: MessageToolCall[], deltas: unknown, index: number): void {
  if (deltas === undefined || deltas === null) return;
  if (!Array.isArray(deltas)) {
    throw invalidStream(
      `chunk ${index + 1} of the ${STREAM} stream has delta.tool_calls ${show(deltas, QUOTED_BODY)}, not an array`,
    );
  }
  for (const delta of deltas as ToolCallDelta[]) {
    const at = delta?.index;
    if (typeof at !== "number" || !Number.isInteger(at) || at < 0) {
      throw invalidStream(
        `chunk ${index + 1} of the ${STREAM} stream has a tool call delta without its "index" (the position of ` +
          `the call it adds to): ${show(delta, QUOTED_BODY)}`,
      );
    }
    const call = (calls[at] ??= {});
    if (typeof delta.id === "string" && delta.id) call.id = delta.id;
    if (typeof delta.type === "string" && delta.type) call.type = delta.type;
    const fn = delta.function;
    if (!fn) continue;
    call.function ??= { name: typeof fn.name === "string" ? fn.name : "", arguments: "" };
    if (typeof fn.name === "string" && fn.name) call.function.name = fn.name;
    if (typeof fn.arguments === "string") call.function.arguments += fn.arguments;
  }
}

/** The folded calls as the turn's called tools: a chat stream carries no tool output, so none has completed. */
function calledTools(calls: MessageToolCall[]): CalledTool[] {
  return calls.map((call, position) => {
    if (!call.function?.name) {
      throw invalidStream(
        `tool call ${position + 1} of the ${STREAM} stream (${show(call, QUOTED_BODY)}) never names its function`,
      );
    }
    return {
      name: call.function.name,
      args: toolCallArgs(call.function.arguments),
      status: "pending",
      ...(call.id === undefined ? {} : { id: call.id }),
    };
  });
}

/**
 * An OpenAI chat completion stream (`data: {"choices":[{"delta":{"content":"…"}}]}` … `data: [DONE]`):
 * its text, the deltas' content joined; the tools it called, from the deltas' `tool_calls` (their
 * arguments parsed from JSON; with no output, which a chat stream does not carry); and its final
 * object, the last chunk with that text at `/choices/0/message/content` and the calls at
 * `/choices/0/message/tool_calls`, so a pointer reads the answer as it would a whole completion's.
 */
export function readOpenAiChatStream(body: string): {
  text: string;
  final: Record<string, unknown>;
  toolCalls: CalledTool[];
} {
  const chunks = jsonDataEvents(body, STREAM);
  let text = "";
  const calls: MessageToolCall[] = [];
  chunks.forEach((chunk, index) => {
    const delta = choiceOf(chunk, index)?.delta;
    if (typeof delta?.["content"] === "string") text += delta["content"];
    foldToolCalls(calls, delta?.["tool_calls"], index);
  });
  const last = chunks.at(-1);
  if (!last) throw invalidStream(`the ${STREAM} stream has no chunk before its "data: [DONE]"`);
  // An index the stream skipped leaves a hole, which filter drops.
  const made = calls.filter(() => true);
  const toolCalls = calledTools(made);
  const final = structuredClone(last);
  const choices = final["choices"] as Record<string, unknown>[];
  choices[0] = {
    ...choices[0],
    message: { role: "assistant", content: text, ...(made.length ? { tool_calls: made } : {}) },
  };
  return { text, final, toolCalls };
}
