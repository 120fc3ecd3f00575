import type { CalledTool } from "../../checks/called-tool.ts";
import { toolCallArgs, toolCallOutput } from "../../checks/tool-call-values.ts";
import { messageText, turnMessages } from "./langgraph-turn-view.ts";

/** A message of a thread's values as the server serialises it: its fields flat, beside its `type`. */
interface ThreadMessage {
  type?: unknown;
  role?: unknown;
  content?: unknown;
  tool_calls?: unknown;
  invalid_tool_calls?: unknown;
  tool_call_id?: unknown;
  status?: unknown;
}

function listOf(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value)
    ? value.filter((item): item is Record<string, unknown> => typeof item === "object" && item !== null)
    : [];
}

/** What the tool message answering a call says: its content, parsed; a failed call's as `{ error }`. */
function ending(answer: ThreadMessage | undefined): Pick<CalledTool, "output" | "status"> {
  if (answer === undefined) return { status: "pending" };
  const text = messageText(answer.content);
  return answer.status === "error"
    ? { output: { error: text }, status: "failed" }
    : { output: toolCallOutput(text), status: "returned" };
}

/**
 * The tools a LangGraph turn called, from its thread's `messages`: the `tool_calls` of each AI
 * message after the last user message, in order, each with what the tool message of its
 * `tool_call_id` says, and a call still waiting for its tool message (the run stopped at an
 * interrupt before the tools ran) pending. A turn that resumes an interrupt sends no user message,
 * so the calls it completes are reported again, with their output. An `invalid_tool_calls` entry,
 * whose arguments the model sent as text that did not parse, failed with its error. Undefined
 * when the values keep no `messages` list: such a graph's calls are not in its thread.
 *
 * @example langgraphToolCalls(output["messages"])
 * // [{ name: "get_weather", args: { city: "Lisbon" }, output: "sunny", status: "returned", id: "call_1" }]
 */
export function langgraphToolCalls(messages: unknown): CalledTool[] | undefined {
  if (!Array.isArray(messages)) return undefined;
  const turn = turnMessages(messages) as ThreadMessage[];
  const answers = new Map<unknown, ThreadMessage>();
  for (const message of turn)
    if ((message.type ?? message.role) === "tool" && !answers.has(message.tool_call_id))
      answers.set(message.tool_call_id, message);
  return turn.flatMap((message): CalledTool[] => {
    if (!["ai", "assistant"].includes(String(message.type ?? message.role))) return [];
    const calls = listOf(message.tool_calls).map((call): CalledTool => {
      const id = typeof call["id"] === "string" ? call["id"] : undefined;
      const answer = id === undefined ? undefined : answers.get(id);
      return { name: String(call["name"]), args: call["args"] ?? {}, ...ending(answer), ...(id ? { id } : {}) };
    });
    const invalid = listOf(message.invalid_tool_calls).map((call): CalledTool => {
      const id = typeof call["id"] === "string" ? { id: call["id"] } : {};
      const args = toolCallArgs(call["args"]);
      const error = typeof call["error"] === "string" ? call["error"] : "the model's tool call is invalid";
      return { name: String(call["name"] ?? ""), args, output: { error }, status: "failed", ...id };
    });
    return [...calls, ...invalid];
  });
}
