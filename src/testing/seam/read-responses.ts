import type { ToolDefinition } from "../../engine/chat-model.ts";
import type { AnsweredItems } from "./answered-items.ts";
import { readResponsesInput } from "./read-responses-input.ts";
import type { SeamCall } from "./seam-call.ts";
import { toolDefinitionOf } from "./tool-definition-of.ts";
import { refuseModelAndStream, seamCallOf } from "./seam-call-of.ts";
import { Unsupported } from "./unsupported.ts";
import { isWireObject, type WireObject } from "./wire-object.ts";

/**
 * A Responses API body (`POST /v1/responses`) as the seam's call: `instructions` and the system
 * and developer items joined as `system`, the other items as messages in order, each
 * `item_reference` resolved from what this seam answered before.
 */
export function readResponses(body: WireObject, answered: AnsweredItems): SeamCall {
  const unsupported = new Unsupported();
  const instructions = body["instructions"];
  if (instructions !== undefined && instructions !== null && typeof instructions !== "string")
    unsupported.note("instructions", instructions, "instructions is a string");
  const read = readResponsesInput(body["input"], answered, unsupported);
  const system = typeof instructions === "string" ? [instructions, ...read.system] : read.system;
  const tools = readTools(body["tools"], unsupported);
  refuseOptions(body, unsupported);
  const resolved = Array.isArray(read.input) ? { ...body, input: read.input } : body;
  const call = { system, messages: read.messages, tools, includeUsage: false, body: resolved };
  return seamCallOf("responses", body, call, unsupported);
}

/**
 * What only the provider's own state could answer (an earlier response, a conversation, a stored
 * prompt), or a stream that is neither on nor off.
 */
function refuseOptions(body: WireObject, unsupported: Unsupported): void {
  refuseModelAndStream(body, unsupported);
  for (const field of ["previous_response_id", "conversation", "prompt"]) {
    const value = body[field];
    if (value !== undefined && value !== null)
      unsupported.note(field, value, "the seam keeps no state but the items it answered; send the items in input");
  }
  if (body["background"] === true) unsupported.note("background", true, "calls are answered in the foreground");
}

function readTools(wire: unknown, unsupported: Unsupported): ToolDefinition[] {
  if (wire === undefined || wire === null) return [];
  if (!Array.isArray(wire)) {
    unsupported.note("tools", wire, "tools is an array");
    return [];
  }
  const tools: ToolDefinition[] = [];
  wire.forEach((tool: unknown, index) => {
    if (isWireObject(tool) && tool["type"] === "function" && typeof tool["name"] === "string")
      tools.push(toolDefinitionOf(tool as WireObject & { name: string }));
    else
      unsupported.note(
        `tools[${index}].type`,
        isWireObject(tool) ? tool["type"] : tool,
        "only function tools are served",
      );
  });
  return tools;
}
