// The module-level bindings of a source folder that change after the module is imported: a `let`
// or `var` assigned again, or a `const` holding a collection, an array, an object or a class
// instance that is then mutated. Such a binding is state every importer shares, so two runs (or two
// specs) in one process see each other's.
//
// It reads the text line by line, not a syntax tree (the TypeScript here has no compiler API): a
// module-level binding is one declared at the start of a line, and a change is an assignment to
// its name or a mutating call on it anywhere in the file.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

export interface ModuleState {
  file: string;
  line: number;
  name: string;
  why: string;
}

const DECLARATION = /^(?:export\s+)?(let|var|const)\s+([\w$]+)\s*(?::[^=;]+)?(?:=\s*(.*)|;)$/;
// Mutating methods of arrays, Maps, Sets and WeakMaps.
const MUTATORS = [
  "set",
  "add",
  "push",
  "pop",
  "shift",
  "unshift",
  "splice",
  "sort",
  "reverse",
  "delete",
  "clear",
  "fill",
];

/**
 * The classes whose instances a module may hold, and the methods that only read them: an
 * AsyncLocalStorage's `run` sets its store for one call's duration and keeps nothing, `getStore`
 * reads it; a formatter's `format`, an encoder's `encode` and `decode` keep no state.
 */
const PURE_METHODS: Readonly<Record<string, readonly string[]>> = {
  AsyncLocalStorage: ["run", "getStore"],
  "Intl.NumberFormat": ["format", "formatToParts"],
  "Intl.DateTimeFormat": ["format", "formatToParts"],
  "Intl.PluralRules": ["select"],
  TextEncoder: ["encode"],
  TextDecoder: ["decode"],
  RegExp: ["test", "exec"],
};

const COLLECTIONS = new Set(["Map", "Set", "WeakMap", "WeakSet"]);

function escaped(name: string): string {
  return name.replace(/\$/g, "\\$");
}

/** Whether `name`, declared on line `at`, is assigned again in `lines`. */
function reassigned(lines: readonly string[], at: number, name: string): number | undefined {
  const assignment = new RegExp(
    `(?<![.\\w$])${escaped(name)}\\s*(?:[-+*/%&|^]|\\?\\?|\\|\\||&&|<<|>>)?=(?![=>])|(?<![.\\w$])${escaped(name)}\\s*(?:\\+\\+|--)|(?:\\+\\+|--)${escaped(name)}(?![\\w$])`,
  );
  const found = lines.findIndex((line, index) => index !== at && assignment.test(line));
  return found === -1 ? undefined : found;
}

/** The line of `lines` that mutates the value `name` holds, a value of kind `kind`, if any. */
function mutated(lines: readonly string[], at: number, name: string, kind: string): number | undefined {
  const target = `(?<![.\\w$])${escaped(name)}`;
  // A collection, an array or an object changes by its mutators; a class instance by any method it
  // has, but those its class is known to keep nothing by.
  const plain = COLLECTIONS.has(kind) || kind === "array" || kind === "object";
  const pure = PURE_METHODS[kind] ?? [];
  const calls = plain
    ? new RegExp(`${target}\\s*\\.\\s*(?:${MUTATORS.join("|")})\\s*\\(`)
    : new RegExp(`${target}\\s*\\.\\s*${pure.length ? `(?!(?:${pure.join("|")})\\()` : ""}[\\w$]+\\s*\\(`);
  const properties = new RegExp(
    `${target}\\s*(?:\\.[\\w$]+|\\[[^\\]]*\\])+\\s*(?:[-+*/%&|^]|\\?\\?|\\|\\||&&)?=(?![=>])|${target}\\s*(?:\\.[\\w$]+|\\[[^\\]]*\\])+\\s*(?:\\+\\+|--)|Object\\.assign\\(\\s*${escaped(name)}\\b`,
  );
  const found = lines.findIndex((line, index) => index !== at && (calls.test(line) || properties.test(line)));
  return found === -1 ? undefined : found;
}

/** What a module-level `const` holds, when it is something that can be mutated: its class, or `array`/`object`. */
function kindOf(init: string): string | undefined {
  if (/^Object\.freeze\(/.test(init)) return undefined;
  const instance = /^new\s+([\w$.]+)/.exec(init);
  if (instance) return instance[1]!;
  if (init.startsWith("[")) return "array";
  if (init.startsWith("{")) return "object";
  return undefined;
}

/** Every module-level binding of `text` that changes after import. */
export function moduleStateIn(file: string, text: string): ModuleState[] {
  const lines = text.split("\n");
  const found: ModuleState[] = [];
  lines.forEach((line, at) => {
    const declared = DECLARATION.exec(line);
    if (!declared) return;
    const [, keyword, name, init = ""] = declared as unknown as [string, string, string, string | undefined];
    if (keyword !== "const") {
      const again = reassigned(lines, at, name);
      if (again !== undefined)
        found.push({ file, line: at + 1, name, why: `${keyword} ${name} is assigned again on line ${again + 1}` });
      return;
    }
    const kind = kindOf(init.trim());
    if (kind === undefined) return;
    const what = COLLECTIONS.has(kind) || kind === "array" || kind === "object" ? `a ${kind}` : `a ${kind} instance`;
    // An exported instance is every importer's to call: only one of a class that keeps nothing is safe.
    // (An exported array or object is typed readonly where it is shared; its own file is checked below.)
    if (line.startsWith("export") && kind !== "array" && kind !== "object" && !PURE_METHODS[kind]) {
      found.push({ file, line: at + 1, name, why: `${name}, ${what}, is exported, so any importer may change it` });
      return;
    }
    const change = mutated(lines, at, name, kind);
    if (change !== undefined)
      found.push({ file, line: at + 1, name, why: `${name}, ${what}, is changed on line ${change + 1}` });
  });
  return found;
}

/** Every module-level binding under `folder` (its .ts and .mjs files) that changes after import. */
export function moduleState(folder: string): ModuleState[] {
  const files = readdirSync(folder, { recursive: true, encoding: "utf8" }).filter((file) => /\.(ts|mjs)$/.test(file));
  return files.flatMap((file) =>
    moduleStateIn(relative(".", join(folder, file)), readFileSync(join(folder, file), "utf8")),
  );
}
