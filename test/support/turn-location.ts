import { readFileSync } from "node:fs";
import { relative } from "node:path";

/**
 * `<file from cwd>:<line>` of the turn labelled `label` in a scenario file, as a failure names it:
 * found in the text, so a test does not pin the line a fixture's layout happens to give.
 */
export function turnLocation(file: string, label: string, cwd = process.cwd()): string {
  const line = readFileSync(file, "utf8")
    .split("\n")
    .findIndex((text) => text.includes(`"label": ${JSON.stringify(label)}`));
  if (line === -1) throw new Error(`${file} has no turn labelled ${JSON.stringify(label)}`);
  return `${relative(cwd, file)}:${line + 1}`;
}

/**
 * `<file from cwd>:<line>` of a scenario file's first final expectation, or of its last line when
 * it has none, as a failed final state names it.
 */
export function finalLocation(file: string, cwd = process.cwd()): string {
  const lines = readFileSync(file, "utf8").split("\n");
  const line = lines.findIndex((text) => /^\s*"final(State|Execution|Children|Memory)":/.test(text));
  return `${relative(cwd, file)}:${line === -1 ? lines.length : line + 1}`;
}
