import type { CalledTool } from "../../checks/called-tool.ts";
import { jsonDataEvents } from "./json-data-events.ts";
import type { UIMessage } from "./ui-message.ts";
import { UiMessageFold } from "./ui-message-fold.ts";
import { uiMessageToolCalls } from "./ui-message-tool-calls.ts";

const STREAM = "ai-sdk-ui";

/** What an AI SDK UI message stream answered. */
export interface AiSdkUiAnswer {
  /** The stream's text deltas, joined. */
  text: string;
  /** `{ text, metadata, data }`, what `answer.step` and `answer.completed` point into. */
  final: Record<string, unknown>;
  /** The assistant message as the SDK's chat client keeps it, and sends it back next turn. */
  message: UIMessage;
  /** The tools the stream called, created or moved on in it. */
  toolCalls: CalledTool[];
}

export interface AiSdkUiOptions {
  /** The last message the request sent: an assistant message is continued, as the client does after a tool's output. */
  last?: UIMessage;
  /** The new assistant message's id, unless the stream's `start` names one (the client makes it; default ""). */
  messageId?: string;
}

/**
 * A Vercel AI SDK UI message stream (AI SDK 7; `x-vercel-ai-ui-message-stream: v1`) folded as the
 * SDK's chat client folds it (`UiMessageFold`): its text (the `text-delta`s joined), the assistant
 * message, the tool calls it reported, and a final object `{ text, metadata, data }` where
 * `metadata` is the message's merged `messageMetadata` and `data` holds each `data-<name>` part's
 * last `data` under `<name>`, so `/metadata/step` or `/data/flow/step` read it. An `error` or
 * `abort` part is an error, as is a stream cut before `data: [DONE]` (which the SDK's servers always
 * send) and anything the SDK's client refuses.
 */
export function readAiSdkUiStream(body: string, options: AiSdkUiOptions = {}): AiSdkUiAnswer {
  const fold = new UiMessageFold(STREAM, options.messageId ?? "", options.last);
  jsonDataEvents(body, STREAM).forEach((chunk, index) => fold.add(chunk, index));
  const { text, message, data } = fold;
  return {
    text,
    final: { text, metadata: message.metadata ?? {}, data },
    message,
    toolCalls: uiMessageToolCalls(message, fold.touched),
  };
}
