import { isToolUIPart, type ToolUIPart, type UIMessagePart } from "./ui-message.ts";

/** What a tool part is set to by one chunk. */
export interface ToolUpdate {
  toolCallId: string;
  toolName: string;
  state: string;
  input?: unknown;
  output?: unknown;
  rawInput?: unknown;
  errorText?: unknown;
  preliminary?: unknown;
  providerExecuted?: unknown;
  providerMetadata?: unknown;
  inputEncoding?: unknown;
  title?: unknown;
  toolMetadata?: unknown;
}

const RESULT_STATES = new Set(["output-available", "output-error"]);

/**
 * The SDK's `updateToolPart` / `updateDynamicToolPart`: moves the call's part (`existing`, else the
 * one of `currentStep`, the parts after the message's last `step-start`) to `update`, or adds it to
 * `parts`. A field the update leaves undefined is cleared, as the client clears it; once set,
 * `providerExecuted` stays.
 */
export function updateToolPart(
  parts: UIMessagePart[],
  currentStep: UIMessagePart[],
  dynamic: boolean,
  update: ToolUpdate,
  existing?: ToolUIPart,
): void {
  const part =
    existing ??
    (currentStep.find(
      (part) =>
        isToolUIPart(part) && part.toolCallId === update.toolCallId && (part.type === "dynamic-tool") === dynamic,
    ) as ToolUIPart | undefined);
  const metadata = update.providerMetadata;
  const metadataKey = RESULT_STATES.has(update.state) ? "resultProviderMetadata" : "callProviderMetadata";
  if (!part) {
    parts.push({
      type: dynamic ? "dynamic-tool" : `tool-${update.toolName}`,
      ...(dynamic ? { toolName: update.toolName } : {}),
      toolCallId: update.toolCallId,
      state: update.state,
      title: update.title,
      ...(update.toolMetadata === undefined ? {} : { toolMetadata: update.toolMetadata }),
      input: update.input,
      ...(update.inputEncoding == null ? {} : { inputEncoding: update.inputEncoding }),
      output: update.output,
      ...(dynamic ? {} : { rawInput: update.rawInput }),
      errorText: update.errorText,
      providerExecuted: update.providerExecuted,
      preliminary: update.preliminary,
      ...(metadata == null ? {} : { [metadataKey]: metadata }),
    });
    return;
  }
  if (dynamic) part.toolName = update.toolName;
  else part.type = `tool-${update.toolName}`;
  Object.assign(part, {
    state: update.state,
    input: update.input,
    output: update.output,
    errorText: update.errorText,
    rawInput: update.rawInput,
    preliminary: update.preliminary,
    providerExecuted: update.providerExecuted ?? part["providerExecuted"],
  });
  if (update.inputEncoding != null) part["inputEncoding"] = update.inputEncoding;
  else delete part["inputEncoding"];
  if (update.title !== undefined) part["title"] = update.title;
  if (update.toolMetadata !== undefined) part["toolMetadata"] = update.toolMetadata;
  if (metadata != null) part[metadataKey] = metadata;
}
