import type { ModelReply, ToolDefinition } from "../../engine/chat-model.ts";

/**
 * `arguments` cut before its closing brace, as a model that stops mid-call leaves it: text no JSON
 * parser accepts, yet recognisably the call it was.
 */
function malformed(text: string): string {
  const trimmed = text.trimEnd();
  return trimmed.endsWith("}") ? trimmed.slice(0, -1) : `{${trimmed}`;
}

/**
 * The reply with its first tool call's arguments made invalid JSON, for a turn's
 * `malformed-tool-call` fault; a reply without tool calls gets one to the first tool the app
 * offered. Undefined when the app offered none, so no call the app could run can be made.
 */
export function malformedToolCall(reply: ModelReply, tools: readonly ToolDefinition[]): ModelReply | undefined {
  const [first, ...rest] = reply.toolCalls;
  if (first) return { ...reply, toolCalls: [{ ...first, arguments: malformed(first.arguments) }, ...rest] };
  const tool = tools[0];
  if (!tool) return undefined;
  return { ...reply, toolCalls: [{ id: "call_malformed", name: tool.name, arguments: "{" }] };
}
