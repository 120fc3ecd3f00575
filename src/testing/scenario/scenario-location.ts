import { isAbsolute, relative } from "node:path";
import type { LoadedScenario } from "./scenario.ts";

/**
 * `scenarios/basic-flow.scenario.json:27`: where a turn (or, without an index, the final
 * expectations) stands in its file, as editors and terminals open it; `undefined` for a scenario
 * that was not read from a file.
 */
export function scenarioLocation(loaded: LoadedScenario, turnIndex?: number): string | undefined {
  const line = turnIndex === undefined ? loaded.lines?.final : loaded.lines?.turns[turnIndex];
  if (line === undefined) return undefined;
  return `${shownPath(loaded.file)}:${line}`;
}

/** A path as messages show it: from the working directory when it lies there, else as it is. */
export function shownPath(file: string): string {
  const fromHere = relative(process.cwd(), file);
  return fromHere.startsWith("..") || isAbsolute(fromHere) ? file : fromHere;
}
