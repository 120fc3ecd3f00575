import type { ToolDefinition } from "../../src/engine/chat-model.ts";
import type { SeamCall } from "../../src/testing/seam/seam-call.ts";
import type { SeamMessage } from "../../src/testing/seam/seam-request.ts";

export interface SeamCallOptions {
  readonly api?: SeamCall["api"];
  readonly model?: string;
  readonly system?: string;
  readonly tools?: readonly ToolDefinition[];
  readonly unsupported?: string;
}

export const FIND_ROOM: ToolDefinition = {
  name: "findRoom",
  description: "Finds a free room.",
  parameters: { type: "object", properties: { nights: { type: "number" } } },
};

/** A user message, for a call's messages. */
export function user(content: string): SeamMessage {
  return { role: "user", content };
}

/**
 * A model call as the wire reads it, with (a copy of) these messages: its body is built from what it
 * carries, so a call repeated with the same messages is a retry, and any other call is not.
 */
export function seamCall(history: readonly SeamMessage[], options: SeamCallOptions = {}): SeamCall {
  const messages = structuredClone(history);
  const api = options.api ?? "chat";
  const model = options.model ?? "gpt-test";
  const system = options.system ?? "You book hotel rooms.";
  const tools = options.tools ?? [FIND_ROOM];
  return {
    api,
    model,
    stream: false,
    includeUsage: false,
    request: { system, messages, latest: messages.at(-1), tools },
    body: structuredClone({ model, system, messages, tools }),
    ...(options.unsupported === undefined ? {} : { unsupported: options.unsupported }),
  };
}
