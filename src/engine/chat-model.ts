import type { MemoryEntry } from "./session-document.ts";

export interface ToolDefinition {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** What a step sends its model: the step's prompt, the step's memory, and the tools it may call. */
export interface ModelRequest {
  system: string;
  messages: readonly MemoryEntry[];
  tools: readonly ToolDefinition[];
}

export interface ModelReply {
  content: string;
  toolCalls: { id: string; name: string; arguments: string }[];
}

/** Which model is wanted: the flow that runs, the top-level flow it runs under, and the step. */
export interface ModelContext {
  flow: string;
  rootFlow: string;
  step: string;
}

export interface ChatModel {
  invoke(request: ModelRequest): Promise<ModelReply>;
}
