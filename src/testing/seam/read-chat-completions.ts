import type { ToolCall } from "../../engine/session-document.ts";
import type { ToolDefinition } from "../../engine/chat-model.ts";
import { contentText } from "./content-text.ts";
import type { SeamCall } from "./seam-call.ts";
import type { SeamMessage } from "./seam-request.ts";
import { toolDefinitionOf } from "./tool-definition-of.ts";
import { refuseModelAndStream, seamCallOf } from "./seam-call-of.ts";
import { Unsupported } from "./unsupported.ts";
import { isWireObject, type WireObject } from "./wire-object.ts";

const TEXT_PARTS = ["text"];

/**
 * A Chat Completions body (`POST /v1/chat/completions`) as the seam's call: the system and
 * developer messages joined as `system`, the rest as messages in order, a tool message named
 * after the call it answers.
 */
export function readChatCompletions(body: WireObject): SeamCall {
  const unsupported = new Unsupported();
  const { system, messages } = readMessages(body["messages"], unsupported);
  const tools = readTools(body["tools"], unsupported);
  refuseOptions(body, unsupported);
  const streamOptions = body["stream_options"];
  const includeUsage = isWireObject(streamOptions) && streamOptions["include_usage"] === true;
  return seamCallOf("chat", body, { system, messages, tools, includeUsage, body }, unsupported);
}

/** What the seam cannot answer in kind: several choices, audio, log probabilities, legacy functions. */
function refuseOptions(body: WireObject, unsupported: Unsupported): void {
  refuseModelAndStream(body, unsupported);
  const n = body["n"];
  if (n !== undefined && n !== null && n !== 1) unsupported.note("n", n, "one choice is answered per call");
  if (body["audio"] !== undefined && body["audio"] !== null)
    unsupported.note("audio", body["audio"], "answers are text");
  const modalities = body["modalities"];
  if (Array.isArray(modalities) && modalities.some((modality) => modality !== "text"))
    unsupported.note("modalities", modalities, "answers are text");
  if (body["logprobs"] === true) unsupported.note("logprobs", true, "the seam's answers carry no log probabilities");
  if (body["functions"] !== undefined) unsupported.note("functions", body["functions"], "tools are given as tools");
}

function readMessages(wire: unknown, unsupported: Unsupported): { system: string[]; messages: SeamMessage[] } {
  const system: string[] = [];
  const messages: SeamMessage[] = [];
  if (!Array.isArray(wire)) {
    unsupported.note("messages", wire, "messages is an array");
    return { system, messages };
  }
  const toolNames = new Map<string, string>();
  wire.forEach((message: unknown, index) => {
    const path = `messages[${index}]`;
    if (!isWireObject(message)) return unsupported.note(path, message, "a message is an object");
    const role = message["role"];
    const content = contentText(message["content"], `${path}.content`, TEXT_PARTS, unsupported);
    if (role === "system" || role === "developer") system.push(content);
    else if (role === "user") messages.push({ role: "user", content });
    else if (role === "assistant") messages.push(assistantMessage(message, content, path, toolNames, unsupported));
    else if (role === "tool") {
      const toolCallId = String(message["tool_call_id"]);
      const name = toolNames.get(toolCallId);
      if (name === undefined)
        unsupported.note(
          `${path}.tool_call_id`,
          message["tool_call_id"],
          "it answers no tool call of an earlier message",
        );
      messages.push({ role: "tool", toolCallId, name: name ?? "", content });
    } else unsupported.note(`${path}.role`, role, "roles are system, developer, user, assistant and tool");
  });
  return { system, messages };
}

function assistantMessage(
  message: WireObject,
  content: string,
  path: string,
  toolNames: Map<string, string>,
  unsupported: Unsupported,
): SeamMessage {
  const wire = message["tool_calls"];
  if (wire === undefined || wire === null || (Array.isArray(wire) && wire.length === 0))
    return { role: "assistant", content };
  if (!Array.isArray(wire)) {
    unsupported.note(`${path}.tool_calls`, wire, "tool_calls is an array");
    return { role: "assistant", content };
  }
  const toolCalls: ToolCall[] = [];
  wire.forEach((call: unknown, index) => {
    const at = `${path}.tool_calls[${index}]`;
    const fn = isWireObject(call) ? call["function"] : undefined;
    if (!isWireObject(call) || call["type"] !== "function" || !isWireObject(fn) || typeof fn["name"] !== "string")
      return unsupported.note(`${at}.type`, isWireObject(call) ? call["type"] : call, "only function calls are served");
    const id = String(call["id"]);
    toolNames.set(id, fn["name"]);
    toolCalls.push({ id, name: fn["name"], arguments: typeof fn["arguments"] === "string" ? fn["arguments"] : "" });
  });
  return { role: "assistant", content, toolCalls };
}

function readTools(wire: unknown, unsupported: Unsupported): ToolDefinition[] {
  if (wire === undefined || wire === null) return [];
  if (!Array.isArray(wire)) {
    unsupported.note("tools", wire, "tools is an array");
    return [];
  }
  const tools: ToolDefinition[] = [];
  wire.forEach((tool: unknown, index) => {
    const fn = isWireObject(tool) ? tool["function"] : undefined;
    if (!isWireObject(tool) || tool["type"] !== "function" || !isWireObject(fn) || typeof fn["name"] !== "string")
      return unsupported.note(
        `tools[${index}].type`,
        isWireObject(tool) ? tool["type"] : tool,
        "only function tools are served",
      );
    tools.push(toolDefinitionOf(fn as WireObject & { name: string }));
  });
  return tools;
}
