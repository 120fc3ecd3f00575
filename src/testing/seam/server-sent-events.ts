/** Events as a `text/event-stream` body: each `event:` line (when named) and its JSON `data:` line, then a blank line. */
export function serverSentEvents(events: readonly { event?: string; data: unknown }[]): string {
  let text = "";
  for (const { event, data } of events) {
    if (event !== undefined) text += `event: ${event}\n`;
    text += `data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
  }
  return text;
}
