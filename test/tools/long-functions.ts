// tsx test/tools/long-functions.ts [folder] [--max=50]: the functions in a source folder (default
// src) longer than --max lines, longest first, as `file:line name (N lines)`. A newcomer reads a
// function at a time; one that does not fit on a screen usually does several things.
//
// It reads the text, not a syntax tree (the TypeScript here has no compiler API): a function is a
// `function` declaration, a method, or an arrow function with a body, and its length runs from the
// line it starts on to the line of the brace that closes its body. Strings, template literals,
// regular expressions and comments are skipped when braces are counted.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

export interface LongFunction {
  file: string;
  line: number;
  name: string;
  lines: number;
}

const START = [
  /^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\*?\s+([\w$]+)/,
  /^\s*(?:export\s+)?(?:const|let)\s+([\w$]+)\s*(?::[^=]+)?=\s*(?:async\s*)?(?:\([^)]*\)|[\w$]+)\s*(?::[^=]+)?=>\s*\{\s*$/,
  /^\s*(?:(?:public|private|protected|static|readonly|async|override|get|set)\s+)*(#?[\w$]+)\s*(?:<[^>]*>)?\([^)]*\)?[^;=]*\{\s*$/,
  /^\s*(?:const\s+)?([\w$.[\]"]+)\s*=\s*(?:async\s*)?\([^)]*\)\s*(?::[^=]+)?=>\s*\{\s*$/,
];
const NOT_NAMES = new Set(["if", "for", "while", "switch", "catch", "with", "return", "else", "do", "try", "finally"]);

/** Where each `{` at `open` closes, skipping strings, templates, regexes and comments. */
function closingOf(text: string, open: number): number {
  let depth = 0;
  for (let at = open; at < text.length; at++) {
    const char = text[at]!;
    const next = text[at + 1];
    if (char === "/" && next === "/") at = text.indexOf("\n", at);
    else if (char === "/" && next === "*") at = text.indexOf("*/", at + 2) + 1;
    else if (char === '"' || char === "'") {
      for (at++; text[at] !== char && at < text.length; at++) if (text[at] === "\\") at++;
    } else if (char === "`") {
      at = skipTemplate(text, at);
    } else if (char === "/" && /[(,=:[!&|?{};]\s*$|return\s*$/.test(text.slice(Math.max(0, at - 20), at))) {
      for (at++; text[at] !== "/" && at < text.length; at++) {
        if (text[at] === "\\") at++;
        else if (text[at] === "[") while (text[++at] !== "]" && at < text.length) if (text[at] === "\\") at++;
      }
    } else if (char === "{") depth += 1;
    else if (char === "}" && --depth === 0) return at;
    if (at < 0) return text.length;
  }
  return text.length;
}

/** The index of the backtick that closes the template starting at `start`. */
function skipTemplate(text: string, start: number): number {
  for (let at = start + 1; at < text.length; at++) {
    if (text[at] === "\\") at++;
    else if (text[at] === "`") return at;
    else if (text[at] === "$" && text[at + 1] === "{") at = closingOf(text, at + 1);
  }
  return text.length;
}

/** The functions of one file longer than `max` lines. */
export function longFunctionsIn(file: string, text: string, max: number): LongFunction[] {
  const lines = text.split("\n");
  const offsets: number[] = [];
  lines.reduce((offset, line) => (offsets.push(offset), offset + line.length + 1), 0);
  const found: LongFunction[] = [];
  lines.forEach((line, index) => {
    const name = START.map((pattern) => pattern.exec(line)?.[1]).find(
      (match) => match !== undefined && !NOT_NAMES.has(match),
    );
    if (!name) return;
    // The body's brace: the first `{` after the parameters, on this line or the next few.
    const from = offsets[index]! + line.search(/\S/);
    const afterParams = text.indexOf(")", from);
    const open = text.indexOf("{", afterParams === -1 ? from : Math.min(afterParams, offsets[index]! + line.length));
    if (open === -1) return;
    const close = closingOf(text, open);
    const last = text.slice(0, close).split("\n").length;
    const length = last - index;
    if (length > max) found.push({ file, line: index + 1, name, lines: length });
  });
  return found;
}

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourcesUnder(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** Every function under `dir` longer than `max` lines, longest first. */
export function longFunctions(dir: string, max = 50): LongFunction[] {
  return sourcesUnder(dir)
    .flatMap((file) => longFunctionsIn(relative(process.cwd(), file), readFileSync(file, "utf8"), max))
    .sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file));
}

if (import.meta.filename === process.argv[1] || process.argv[1]?.endsWith("long-functions.ts")) {
  const args = process.argv.slice(2);
  const max = Number(args.find((arg) => arg.startsWith("--max="))?.slice(6) ?? 50);
  const dir = args.find((arg) => !arg.startsWith("--")) ?? "src";
  const found = longFunctions(dir, max);
  for (const entry of found) console.log(`${entry.file}:${entry.line} ${entry.name} (${entry.lines} lines)`);
  console.log(`${found.length} function${found.length === 1 ? "" : "s"} over ${max} lines under ${dir}/`);
}
