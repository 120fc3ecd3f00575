/**
 * Where JSON.parse stopped, in our words: V8's `… in JSON at position 12 (line 2 column 3)` reads
 * ` at line 2, column 3: …`, as every other problem of a file names its place.
 */
export function describeJsonError(message: string): string {
  const reason = message.replace(/\s*\n\s*/g, " ");
  const position = /\s*in JSON at position \d+ \(line (\d+) column (\d+)\)/.exec(reason);
  if (!position) return `: ${reason}`;
  return ` at line ${position[1]}, column ${position[2]}: ${reason.replace(position[0], "")}`;
}
