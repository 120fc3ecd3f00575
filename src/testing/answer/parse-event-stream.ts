export interface StreamEvent {
  event: string;
  data: string;
}

/** Splits a server-sent event stream into its events (`event:` defaults to `message`; `data:` lines join). */
export function parseEventStream(text: string): StreamEvent[] {
  const events: StreamEvent[] = [];
  for (const block of text.replace(/\r\n?/g, "\n").split(/\n\n+/)) {
    let event = "message";
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line === "" || line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "event") event = value;
      else if (field === "data") data.push(value);
    }
    if (data.length || event !== "message") events.push({ event, data: data.join("\n") });
  }
  return events;
}
