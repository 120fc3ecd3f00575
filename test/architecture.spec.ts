import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { test } from "node:test";

// docs/architecture.md says which part of src/ may import which; these tests hold the code to it,
// so the page a newcomer reads is the structure the code has.

const ROOT = resolve(import.meta.dirname, "..");
const SRC = join(ROOT, "src");
const PAGE = readFileSync(join(ROOT, "docs", "architecture.md"), "utf8");

/** The barrels re-export the public API from every part: they are the API, not a part. */
const BARRELS = new Set(["src/index.ts", "src/testing/index.ts"]);

interface Import {
  /** The importing file, relative to the root. */
  file: string;
  line: number;
  /** The imported file, relative to the root. */
  target: string;
}

// A static import or re-export (`import … from "x"`, `export … from "x"`, `import "x"`) or a
// dynamic `import("x")`, its specifier the last group.
const IMPORT = /^(?:import|export)\b[^;]*?\bfrom\s+"([^"]+)"|^import\s+"([^"]+)"|\bimport\(\s*"([^"]+)"\s*\)/gm;

/**
 * The relative imports of a module's `text`, resolved from `file`. A specifier that names no file
 * is left out: the scaffold's templates hold the imports of the files they write, as text.
 */
function importsOf(file: string, text: string, exists: (path: string) => boolean = existsSync): Import[] {
  const found: Import[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const specifier = match[1] ?? match[2] ?? match[3]!;
    if (!specifier.startsWith(".")) continue;
    const target = relative(ROOT, resolve(ROOT, dirname(file), specifier));
    if (!exists(join(ROOT, target))) continue;
    const line = text.slice(0, match.index).split("\n").length;
    found.push({ file, line, target });
  }
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|mjs)$/.test(entry.name) ? [relative(ROOT, path)] : [];
  });
}

const IMPORTS = sourceFiles(SRC)
  .filter((file) => !BARRELS.has(file.split(sep).join("/")))
  .flatMap((file) => importsOf(file, readFileSync(join(ROOT, file), "utf8")))
  // package.json and the JSON schemas are read, not parts of the code.
  .filter((each) => each.target.startsWith(`src${sep}`));

/** The part of src/ a file belongs to: its folder under src/, or its own name for a file directly there. */
function partOf(file: string): string {
  const [, first, second] = file.split(sep);
  return second === undefined ? first!.replace(/\.(ts|mjs)$/, "") : first!;
}

/** The folder under src/testing/ a file belongs to; undefined for a file directly there. */
function testingFolderOf(file: string): string | undefined {
  const [, testing, folder, rest] = file.split(sep);
  return testing === "testing" && rest !== undefined ? folder : undefined;
}

/** The page's table of who may import whom: `part → a, b` lines under "The dependency rule". */
function allowedParts(page: string): Map<string, Set<string>> {
  const rule = page.slice(page.indexOf("## The dependency rule"));
  const table = new Map<string, Set<string>>();
  for (const [, part, list] of rule.matchAll(/^([a-z-]+)\s+→([^\n]*)$/gm)) {
    const names = list!.split(",").map((name) => name.trim());
    table.set(part!, new Set(names.filter(Boolean)));
  }
  return table;
}

/** The folders of src/testing/ in the order the page lists them under "Folders". */
function testingOrder(page: string): string[] {
  const folders = page.slice(page.indexOf("## Folders"), page.indexOf("\n## ", page.indexOf("## Folders") + 1));
  return [...folders.matchAll(/^ {2}- `([a-z-]+)\/` —/gm)].map(([, name]) => name!);
}

const shown = (imports: readonly Import[]) =>
  imports.map((each) => `${each.file}:${each.line} imports ${each.target}`).join("\n");

test("each part of src/ imports only the parts docs/architecture.md's dependency rule names for it", () => {
  const allowed = allowedParts(PAGE);
  const parts = new Set(sourceFiles(SRC).map(partOf));
  assert.deepEqual(
    [...parts].filter((part) => part !== "index" && !allowed.has(part)),
    [],
    "every part of src/ has a line in the dependency rule",
  );
  const broken = IMPORTS.filter((each) => {
    const from = partOf(each.file);
    const to = partOf(each.target);
    return from !== to && !allowed.get(from)?.has(to);
  });
  assert.deepEqual(broken, [], `import only what the rule allows, or change the rule and say why:\n${shown(broken)}`);
});

test("each folder of src/testing/ imports only the folders docs/architecture.md lists before it", () => {
  const order = testingOrder(PAGE);
  const folders = new Set(sourceFiles(join(SRC, "testing")).flatMap((file) => testingFolderOf(file) ?? []));
  assert.deepEqual(
    [...folders].filter((folder) => !order.includes(folder)).sort(),
    [],
    "every folder of src/testing/ is listed under Folders",
  );
  const broken = IMPORTS.filter((each) => {
    const from = testingFolderOf(each.file);
    const to = testingFolderOf(each.target);
    return from !== undefined && to !== undefined && order.indexOf(to) > order.indexOf(from);
  });
  assert.deepEqual(broken, [], `a folder imports one listed after it:\n${shown(broken)}`);
});

test("the scan finds static, type, re-exported and dynamic imports, and skips a template's imports of files that do not exist", () => {
  const text = [
    'import { a } from "./a.ts";',
    'import type { B } from "../b.ts";',
    "import {",
    "  c,",
    '} from "./c.ts";',
    'export { d } from "./d.ts";',
    'const e = await import("./e.ts");',
    'import "./f.ts";',
    'import { join } from "node:path";',
    "const template = `",
    'import { g } from "./g.ts";',
    "`;",
  ].join("\n");
  const exists = (path: string) => !path.endsWith("g.ts");
  const found = importsOf(join("src", "x", "y.ts"), text, exists);
  assert.deepEqual(
    found.map((each) => [each.line, each.target]),
    [
      [1, join("src", "x", "a.ts")],
      [2, join("src", "b.ts")],
      [3, join("src", "x", "c.ts")],
      [6, join("src", "x", "d.ts")],
      [7, join("src", "x", "e.ts")],
      [8, join("src", "x", "f.ts")],
    ],
  );
});

test("the page's rule and folder list are read as written", () => {
  const page = [
    "## Folders",
    "",
    "  - `first/` — one",
    "  - `second/` — two",
    "",
    "## The dependency rule",
    "",
    "```",
    "cli        → testing, errors",
    "errors     →",
    "```",
  ].join("\n");
  assert.deepEqual(testingOrder(page), ["first", "second"]);
  assert.deepEqual(
    [...allowedParts(page)].map(([part, names]) => [part, [...names]]),
    [
      ["cli", ["testing", "errors"]],
      ["errors", []],
    ],
  );
});
