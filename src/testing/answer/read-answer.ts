import type { IncomingHttpHeaders } from "node:http";
import { parseCsv, type Csv } from "./parse-csv.ts";
import { parseEventStream, type StreamEvent } from "./parse-event-stream.ts";

/** A chat answer read from its body, whatever its media type. */
export interface Answer {
  /** Lower case, without parameters: `application/json`, `text/event-stream`. */
  mediaType: string;
  /** The JSON answer: the body, or for an event stream the data of its `done` event. */
  json: Record<string, unknown> | undefined;
  events: StreamEvent[] | undefined;
  /** For a `text/csv` answer, its parsed rows. */
  csv?: Csv;
  /** What expectations match: the answer's `response`, an error's message, or the raw body. */
  text: string;
  /** What is wrong with the body's shape. */
  problems: string[];
  /**
   * `json` holds only what the answer claims of the session (a target of another kind's answer):
   * a field it lacks is no claim. Unset: flowcheck's answer, which must carry every claim.
   */
  claimsOnly?: boolean;
}

/** The JSON object `text` holds, or undefined when it holds anything else or does not parse. */
export function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function readEventStream(
  body: string,
  problems: string[],
): { json: Record<string, unknown> | undefined; events: StreamEvent[] } {
  const events = parseEventStream(body);
  const last = events.at(-1);
  if (!last || last.event !== "done") {
    problems.push(
      `the event stream does not end with a "done" event (events: ${events.map((e) => e.event).join(", ") || "none"})`,
    );
    return { json: undefined, events };
  }
  const json = parseObject(last.data);
  if (!json) problems.push(`the "done" event's data is not a JSON object: ${last.data.slice(0, 120)}`);
  let joined = "";
  events.slice(0, -1).forEach((event, index) => {
    const token = event.event === "token" ? parseObject(event.data) : undefined;
    if (typeof token?.["text"] !== "string") {
      problems.push(
        `event ${index + 1} is "${event.event}" with data ${event.data.slice(0, 60)}; expected a "token" event with {"text": "…"}`,
      );
    } else {
      joined += token["text"];
    }
  });
  if (json && typeof json["response"] === "string" && joined !== json["response"]) {
    problems.push(
      `the token events spell ${JSON.stringify(joined.slice(0, 80))} ` +
        `but the "done" event's response is ${JSON.stringify(json["response"].slice(0, 80))}`,
    );
  }
  return { json, events };
}

/** The answer's media type, lower case, without its parameters (`text/csv; charset=utf-8` → `text/csv`); "" without one. */
export function mediaTypeOf(headers: Readonly<Record<string, string | string[] | undefined>>): string {
  const type = headers["content-type"];
  return (typeof type === "string" ? type : "").split(";")[0]!.trim().toLowerCase();
}

export function readAnswer(headers: IncomingHttpHeaders, body: string): Answer {
  const mediaType = mediaTypeOf(headers);
  const problems: string[] = [];
  let json: Record<string, unknown> | undefined;
  let events: StreamEvent[] | undefined;
  let csv: Csv | undefined;
  if (mediaType === "text/csv") {
    try {
      csv = parseCsv(body);
    } catch (error) {
      problems.push(`the CSV body does not parse: ${(error as Error).message}`);
    }
  } else if (mediaType === "text/event-stream") {
    ({ json, events } = readEventStream(body, problems));
  } else if (mediaType === "application/json") {
    json = parseObject(body);
    if (!json) problems.push(`the body is not a JSON object: ${body.slice(0, 120)}`);
  }
  const error = json?.["error"] as { message?: unknown } | undefined;
  const text =
    typeof json?.["response"] === "string"
      ? json["response"]
      : typeof error?.message === "string"
        ? error.message
        : body;
  return { mediaType, json, events, ...(csv ? { csv } : {}), text, problems };
}
