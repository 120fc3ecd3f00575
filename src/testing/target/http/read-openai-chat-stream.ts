import { show } from "../../scenario/show.ts";
import { invalidStream, jsonDataEvents } from "./json-data-events.ts";
import { QUOTED_BODY } from "../request-target.ts";

const STREAM = "openai-chat";

function contentOf(chunk: Record<string, unknown>, index: number): string {
  if (chunk["error"] !== undefined) {
    throw invalidStream(`chunk ${index + 1} of the ${STREAM} stream is an error: ${show(chunk["error"], QUOTED_BODY)}`);
  }
  const choices = chunk["choices"];
  if (!Array.isArray(choices)) {
    throw invalidStream(
      `chunk ${index + 1} of the ${STREAM} stream has no "choices" array: ${show(chunk, QUOTED_BODY)}; ` +
        'expected chat.completion.chunk objects ({"choices":[{"delta":{"content":"…"}}]})',
    );
  }
  const content = (choices[0] as { delta?: { content?: unknown } } | undefined)?.delta?.content;
  return typeof content === "string" ? content : "";
}

/**
 * An OpenAI chat completion stream (`data: {"choices":[{"delta":{"content":"…"}}]}` … `data: [DONE]`):
 * its text, the deltas' content joined, and its final object, the last chunk with that text at
 * `/choices/0/message/content`, so a pointer reads the answer as it would a whole completion's.
 */
export function readOpenAiChatStream(body: string): { text: string; final: Record<string, unknown> } {
  const chunks = jsonDataEvents(body, STREAM);
  const text = chunks.map(contentOf).join("");
  const last = chunks.at(-1);
  if (!last) throw invalidStream(`the ${STREAM} stream has no chunk before its "data: [DONE]"`);
  const final = structuredClone(last);
  const choices = final["choices"] as Record<string, unknown>[];
  choices[0] = { ...choices[0], message: { role: "assistant", content: text } };
  return { text, final };
}
