import type { ToolDefinition } from "../../engine/chat-model.ts";
import type { WireObject } from "./wire-object.ts";
import { isWireObject } from "./wire-object.ts";

/** A function tool of either API (its `name`, `description`, `parameters`) as our engine's models are given one. */
export function toolDefinitionOf(tool: WireObject & { name: string }): ToolDefinition {
  return {
    name: tool.name,
    description: typeof tool["description"] === "string" ? tool["description"] : "",
    parameters: isWireObject(tool["parameters"]) ? tool["parameters"] : {},
  };
}
