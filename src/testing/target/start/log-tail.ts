import { readFileSync } from "node:fs";
import { stripVTControlCharacters } from "node:util";

/** The last `count` lines of the log at `file`, colours stripped; empty when it cannot be read. */
export function logTail(file: string, count: number): string[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return [];
  }
  const lines = stripVTControlCharacters(text).split(/\r?\n/);
  if (lines.at(-1) === "") lines.pop();
  return lines.slice(-count);
}
