/**
 * A message as the AI SDK's chat client (`useChat`) keeps it and sends it back: its role, its parts
 * (`text`, `tool-<name>`, `step-start`, `data-<name>`, …) and the metadata its stream carried. Parts
 * are kept as plain objects: flowcheck reads a few of their fields and sends the rest back as it got them.
 */
export interface UIMessage {
  id: string;
  role: "system" | "user" | "assistant";
  metadata?: unknown;
  parts: UIMessagePart[];
}

/** One part of a `UIMessage`, by its `type`. */
export interface UIMessagePart {
  type: string;
  [field: string]: unknown;
}

/** A part that is a tool call: `tool-<name>`, or `dynamic-tool` with its `toolName`. */
export interface ToolUIPart extends UIMessagePart {
  toolCallId: string;
  state: string;
  input?: unknown;
  output?: unknown;
  rawInput?: unknown;
  errorText?: string;
  preliminary?: boolean;
  toolName?: string;
  approval?: Record<string, unknown>;
}

export function isToolUIPart(part: UIMessagePart): part is ToolUIPart {
  return part.type.startsWith("tool-") || part.type === "dynamic-tool";
}

/** The tool's name: `tool-<name>`'s name, or a dynamic tool's `toolName`. */
export function toolNameOf(part: ToolUIPart): string {
  return part.type === "dynamic-tool" ? String(part.toolName) : part.type.slice("tool-".length);
}
