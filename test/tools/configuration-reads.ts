// Where the source reads its configuration: each `process.env` and each call of `loadConfig(`, by
// file and line, comments aside. The environment is read by the configuration module alone, and
// parsed by a command once; a read anywhere else is a second, unseen source of settings.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

export interface SourceLine {
  file: string;
  line: number;
  text: string;
}

/** Whether `line` is a comment line (`//`, or a line of a `/* … *\/` block). */
function isComment(line: string): boolean {
  return /^\s*(\/\/|\/\*|\*)/.test(line);
}

/** The lines of `text` that match `pattern`, comments aside. */
export function linesMatching(file: string, text: string, pattern: RegExp): SourceLine[] {
  return text
    .split("\n")
    .flatMap((line, at) => (!isComment(line) && pattern.test(line) ? [{ file, line: at + 1, text: line.trim() }] : []));
}

/** A read of the process's environment. */
export const ENVIRONMENT_READ = /\bprocess\.env\b/;
/** A call of loadConfig, its definition aside. */
export const LOAD_CONFIG_CALL = /(?<!function\s)\bloadConfig\(/;

/** Every line under `folder` (its .ts and .mjs files) that matches `pattern`, comments aside. */
export function sourceLines(folder: string, pattern: RegExp): SourceLine[] {
  const files = readdirSync(folder, { recursive: true, encoding: "utf8" }).filter((file) => /\.(ts|mjs)$/.test(file));
  return files.flatMap((file) =>
    linesMatching(relative(".", join(folder, file)), readFileSync(join(folder, file), "utf8"), pattern),
  );
}
