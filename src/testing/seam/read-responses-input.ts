import type { ToolCall } from "../../engine/session-document.ts";
import type { AnsweredItems } from "./answered-items.ts";
import { contentText } from "./content-text.ts";
import type { SeamMessage } from "./seam-request.ts";
import type { Unsupported } from "./unsupported.ts";
import { isWireObject, type WireObject } from "./wire-object.ts";

/** A Responses `input` read: the system and developer texts, the conversation, and the input with its references resolved. */
export interface ResponsesInput {
  readonly system: string[];
  readonly messages: SeamMessage[];
  readonly input: unknown;
}

/** How a reading stands after each item: the function calls seen so far are named by their `call_id`. */
interface Reading {
  readonly system: string[];
  readonly messages: SeamMessage[];
  readonly toolNames: Map<string, string>;
  readonly unsupported: Unsupported;
}

/**
 * A Responses body's `input`, a string or a list of items, in order. An `item_reference` is read
 * as the item this seam answered under its id, since a provider that stores its answers does so;
 * one the seam never answered is unsupported.
 */
export function readResponsesInput(input: unknown, answered: AnsweredItems, unsupported: Unsupported): ResponsesInput {
  if (typeof input === "string") return { system: [], messages: [{ role: "user", content: input }], input };
  if (input === undefined || input === null) return { system: [], messages: [], input };
  if (!Array.isArray(input)) {
    unsupported.note("input", input, "input is a string or an array of items");
    return { system: [], messages: [], input };
  }
  const reading: Reading = { system: [], messages: [], toolNames: new Map(), unsupported };
  const resolved = input.map((wire: unknown, index) => {
    const path = `input[${index}]`;
    if (!isWireObject(wire)) {
      unsupported.note(path, wire, "an input item is an object");
      return wire;
    }
    const item = wire["type"] === "item_reference" ? (answered.item(wire["id"]) ?? wire) : wire;
    if (item === wire && wire["type"] === "item_reference")
      unsupported.note(`${path}.id`, wire["id"], "this seam answered no item under that id");
    else readItem(item, path, reading);
    return item;
  });
  return { system: reading.system, messages: reading.messages, input: resolved };
}

function readItem(item: WireObject, path: string, reading: Reading): void {
  const type = item["type"];
  if (type === undefined || type === "message") readMessage(item, path, reading);
  else if (type === "function_call") readFunctionCall(item, path, reading);
  else if (type === "function_call_output") readFunctionCallOutput(item, path, reading);
  else
    reading.unsupported.note(
      `${path}.type`,
      type,
      "input items are messages, function_call, function_call_output and item_reference",
    );
}

function readMessage(item: WireObject, path: string, { system, messages, unsupported }: Reading): void {
  const role = item["role"];
  const content = item["content"];
  if (role === "system" || role === "developer")
    system.push(contentText(content, `${path}.content`, ["input_text"], unsupported));
  else if (role === "user")
    messages.push({ role: "user", content: contentText(content, `${path}.content`, ["input_text"], unsupported) });
  else if (role === "assistant")
    messages.push({
      role: "assistant",
      content: contentText(content, `${path}.content`, ["output_text"], unsupported),
    });
  else unsupported.note(`${path}.role`, role, "roles are system, developer, user and assistant");
}

/** A function call joins the assistant message it follows, as Chat Completions puts its tool calls on that message. */
function readFunctionCall(item: WireObject, path: string, { messages, toolNames, unsupported }: Reading): void {
  const { call_id: id, name, arguments: args } = item;
  if (typeof id !== "string" || typeof name !== "string" || typeof args !== "string") {
    unsupported.note(path, item, "a function_call has call_id, name and arguments as strings");
    return;
  }
  toolNames.set(id, name);
  const call: ToolCall = { id, name, arguments: args };
  const last = messages.at(-1);
  if (last?.role === "assistant")
    messages[messages.length - 1] = { ...last, toolCalls: [...(last.toolCalls ?? []), call] };
  else messages.push({ role: "assistant", content: "", toolCalls: [call] });
}

function readFunctionCallOutput(item: WireObject, path: string, { messages, toolNames, unsupported }: Reading): void {
  const toolCallId = String(item["call_id"]);
  const name = toolNames.get(toolCallId);
  if (name === undefined)
    unsupported.note(`${path}.call_id`, item["call_id"], "it answers no function_call of an earlier item");
  const content = contentText(item["output"], `${path}.output`, ["input_text"], unsupported);
  messages.push({ role: "tool", toolCallId, name: name ?? "", content });
}
