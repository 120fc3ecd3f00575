import { FlowcheckError } from "../../../errors.ts";
import { parseObject } from "../../answer/read-answer.ts";
import { parseEventStream } from "../../answer/parse-event-stream.ts";
import type { CalledTool } from "../../checks/called-tool.ts";
import { show } from "../../scenario/show.ts";
import { QUOTED_BODY } from "../request-target.ts";
import { errorText, pairedToolCalls, type MastraCall, type MastraOutcome } from "./mastra-tool-calls.ts";

/** What a turn's answer said, from a stream's chunks or a generate body. */
export interface MastraAnswer {
  /** The answer's text: every step's text joined. */
  text: string;
  toolCalls: CalledTool[];
  /** The id the assistant's message is stored under, where the answer names it. */
  messageId?: string;
}

const DONE = "[DONE]";

function invalid(message: string): FlowcheckError {
  return new FlowcheckError("target_invalid_answer", message);
}

/**
 * A `/stream` answer: Mastra's chunks (`{ type, runId, from, payload }`), one per `data:` line, up
 * to `data: [DONE]`. A stream cut before it or before its `finish` chunk, a line that is not a JSON
 * object, and an `error` chunk are `target_invalid_answer`, saying which.
 */
export function readMastraStream(raw: string): MastraAnswer {
  const events = parseEventStream(raw).filter((event) => event.data !== "");
  const done = events.findIndex((event) => event.data === DONE);
  if (done === -1)
    throw invalid(
      `the stream ends without "data: ${DONE}" after ${events.length} chunks (${show(raw, QUOTED_BODY)}): ` +
        "the server stopped mid-answer; see its log",
    );
  let text = "";
  let messageId: string | undefined;
  let finished = false;
  const calls: MastraCall[] = [];
  const outcomes: MastraOutcome[] = [];
  events.slice(0, done).forEach((event, index) => {
    const chunk = parseObject(event.data);
    if (!chunk)
      throw invalid(`chunk ${index + 1} of the stream is ${show(event.data, QUOTED_BODY)}, not a JSON object`);
    const payload = (chunk["payload"] ?? {}) as Record<string, unknown>;
    const id = String(payload["toolCallId"]);
    switch (chunk["type"]) {
      case "error":
        throw invalid(`the stream has an error chunk: ${show(errorText(payload["error"]))}; see the server's log`);
      case "start":
        if (typeof payload["messageId"] === "string") messageId = payload["messageId"];
        break;
      case "text-delta":
        text += typeof payload["text"] === "string" ? payload["text"] : "";
        break;
      case "tool-call":
        calls.push({ id, name: String(payload["toolName"]), args: payload["args"] });
        break;
      case "tool-result":
        outcomes.push(
          payload["isError"] === true ? { id, error: errorText(payload["result"]) } : { id, output: payload["result"] },
        );
        break;
      case "tool-error":
        outcomes.push({ id, error: errorText(payload["error"]) });
        break;
      case "finish":
        finished = true;
    }
  });
  if (!finished)
    throw invalid(
      `the stream ends with "data: ${DONE}" but no finish chunk after ${done} chunks (${show(raw, QUOTED_BODY)}): ` +
        "the agent's run did not end; see the server's log",
    );
  return { text, toolCalls: pairedToolCalls(calls, outcomes), ...(messageId ? { messageId } : {}) };
}

/**
 * A `/generate` answer: its `text`, and the tool calls of its `steps` (each step's content, where a
 * call's `tool-result` carries its output typed `json`/`text`, or `error-text`/`error-json` for a
 * call that failed). A body that is no object with a text is `target_invalid_answer`.
 */
export function readMastraGenerate(body: unknown): MastraAnswer {
  const answer = body as { text?: unknown; steps?: unknown } | null;
  if (typeof answer?.text !== "string")
    throw invalid(`the body has no "text": ${show(body, QUOTED_BODY)}; is the route an agent's generate?`);
  const calls: MastraCall[] = [];
  const outcomes: MastraOutcome[] = [];
  const steps = Array.isArray(answer.steps) ? (answer.steps as { content?: unknown }[]) : [];
  for (const part of steps.flatMap((step) => (Array.isArray(step?.content) ? step.content : []))) {
    const { type, toolCallId, toolName, input, output, error } = part as Record<string, unknown>;
    const id = String(toolCallId);
    if (type === "tool-call") calls.push({ id, name: String(toolName), args: input });
    if (type === "tool-error") outcomes.push({ id, error: errorText(error) });
    if (type !== "tool-result") continue;
    const typed = output as { type?: unknown; value?: unknown } | null;
    const failed = typed?.type === "error-text" || typed?.type === "error-json";
    outcomes.push(failed ? { id, error: errorText(typed.value) } : { id, output: typed?.value });
  }
  return { text: answer.text, toolCalls: pairedToolCalls(calls, outcomes) };
}
