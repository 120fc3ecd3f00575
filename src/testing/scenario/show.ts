/** A value as messages quote it: its JSON, cut at `max` characters. */
export function show(value: unknown, max = 60): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
