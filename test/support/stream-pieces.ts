/** A reply cut into the pieces the fixture servers stream: words with their following space. */
export function wordsOf(reply: string): string[] {
  return reply.match(/\S+\s*/g) ?? [];
}

/** One `data:` event of a server-sent event stream. */
export function dataEvent(data: unknown): string {
  return `data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
}
