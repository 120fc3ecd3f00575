import { show } from "../../scenario/show.ts";
import { invalidStream, jsonDataEvents } from "./json-data-events.ts";
import { QUOTED_BODY } from "../request-target.ts";

const STREAM = "ai-sdk-ui";

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Metadata merged as the AI SDK's client merges it: objects key by key, deeply; anything else replaces. */
function merged(base: unknown, next: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(next)) return next;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(next)) if (value !== undefined) out[key] = merged(base[key], value);
  return out;
}

/**
 * A Vercel AI SDK UI message stream (v5; `x-vercel-ai-ui-message-stream: v1`): its text, the
 * `text-delta` parts' `delta`s joined, and a final object `{ text, metadata, data }` where `metadata`
 * merges the `messageMetadata` of `start`, `message-metadata` and `finish` parts, and `data` holds
 * each `data-<name>` part's last `data` under `<name>`, so `/metadata/step` or `/data/flow/step` read
 * it. An `error` or `abort` part is an error, as is a stream cut before `data: [DONE]`.
 */
export function readAiSdkUiStream(body: string): { text: string; final: Record<string, unknown> } {
  let text = "";
  let metadata: unknown;
  const data: Record<string, unknown> = {};
  jsonDataEvents(body, STREAM).forEach((part, index) => {
    const type = part["type"];
    if (typeof type !== "string") {
      throw invalidStream(`part ${index + 1} of the ${STREAM} stream has no "type": ${show(part, QUOTED_BODY)}`);
    }
    if (type === "error") {
      throw invalidStream(
        `the ${STREAM} stream has an error part: ${show(part["errorText"], QUOTED_BODY)}; see the server's log`,
      );
    }
    if (type === "abort")
      throw invalidStream(`the ${STREAM} stream was aborted: ${show(part["reason"] ?? "no reason given")}`);
    if (type === "text-delta" && typeof part["delta"] === "string") text += part["delta"];
    else if (type.startsWith("data-")) data[type.slice("data-".length)] = part["data"];
    else if (
      (type === "start" || type === "message-metadata" || type === "finish") &&
      part["messageMetadata"] != null
    ) {
      metadata = merged(metadata, part["messageMetadata"]);
    }
  });
  return { text, final: { text, metadata: metadata ?? {}, data } };
}
