import type { CalledTool } from "../../checks/called-tool.ts";
import { toolCallArgs, toolCallOutput } from "../../checks/tool-call-values.ts";
import { isToolUIPart, toolNameOf, type ToolUIPart, type UIMessage } from "./ui-message.ts";

function calledTool(part: ToolUIPart): CalledTool {
  const call = { name: toolNameOf(part), args: toolCallArgs(part.input ?? part.rawInput), id: part.toolCallId };
  if (part.state === "output-available" && part.preliminary !== true)
    return { ...call, output: toolCallOutput(part.output), status: "returned" };
  if (part.state === "output-error") return { ...call, output: { error: part.errorText ?? "" }, status: "failed" };
  if (part.state === "output-denied") return { ...call, status: "denied" };
  return { ...call, status: "pending" };
}

/**
 * The tool calls of an assistant message that one stream created or moved on (`ids`), in the
 * message's order: a returned call with its output (JSON text parsed), a failed one with
 * `{ error: <its errorText> }`, a denied one, and one the stream named but never completed (its
 * input streaming or available, waiting on an approval, or only a preliminary output) as pending.
 */
export function uiMessageToolCalls(message: UIMessage, ids: ReadonlySet<string>): CalledTool[] {
  return message.parts
    .filter((part) => isToolUIPart(part) && ids.has(part.toolCallId))
    .map((part) => calledTool(part as ToolUIPart));
}
