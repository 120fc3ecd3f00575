import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { test } from "node:test";
import { SCENARIO_RUN_SETTINGS } from "../src/testing/scenario/scenario-env.ts";
import { codeNamesIn, sectionOf, tableRowsOf } from "./support/markdown.ts";

// docs/reference.md documents every key a scenario file may hold and every environment variable
// flowcheck reads. These tests fail naming what is missing, so a key or variable added to the
// schema, src/config.ts or .env.example cannot go undocumented.

const ROOT = resolve(import.meta.dirname, "..");
const REFERENCE = readFileSync(join(ROOT, "docs", "reference.md"), "utf8");
const SCHEMA: unknown = JSON.parse(readFileSync(join(ROOT, "scenarios", "scenario.schema.json"), "utf8"));

/**
 * Where each object of the schema is documented: the reference's section (by heading) whose table
 * lists its keys in the first column, or, for an object nested in one key, the row of that key.
 */
const DOCUMENTED_IN: Record<string, { heading: string; row?: string }> = {
  "": { heading: "Scenario keys" },
  "properties/cases/items": { heading: "Cases" },
  "$defs/turn": { heading: "Turn keys" },
  "$defs/executionEntry": { heading: "`finalExecution` entries" },
  "$defs/childRun": { heading: "`finalChildren` runs" },
  "$defs/memoryEntry": { heading: "`finalMemory` messages" },
  "$defs/memoryEntry/properties/toolCalls/items": { heading: "`finalMemory` messages", row: "toolCalls" },
};

/** Every object in the schema that declares keys, by its path: `$defs/turn` → its keys. */
function keyedObjects(node: unknown, path: string[] = []): Map<string, string[]> {
  const found = new Map<string, string[]>();
  if (Array.isArray(node)) node.forEach((item, index) => keyedObjects(item, [...path, String(index)]).forEach((keys, at) => found.set(at, keys)));
  else if (node !== null && typeof node === "object") {
    const properties = (node as Record<string, unknown>)["properties"];
    if (properties !== null && typeof properties === "object") found.set(path.join("/"), Object.keys(properties));
    for (const [key, value] of Object.entries(node)) keyedObjects(value, [...path, key]).forEach((keys, at) => found.set(at, keys));
  }
  return found;
}

/** The names in backticks in the first cell of each row of the table(s) under `heading`. */
function firstColumn(heading: string): Set<string> {
  const section = sectionOf(REFERENCE, heading);
  assert.ok(section !== undefined, `docs/reference.md has no heading "${heading}"`);
  return new Set(tableRowsOf(section).flatMap((cells) => codeNamesIn(cells[0] ?? "")));
}

/** The names in backticks in the row of `heading`'s table whose first cell names `row`. */
function rowNames(heading: string, row: string): Set<string> {
  const section = sectionOf(REFERENCE, heading);
  assert.ok(section !== undefined, `docs/reference.md has no heading "${heading}"`);
  const cells = tableRowsOf(section).find((rowCells) => codeNamesIn(rowCells[0] ?? "").includes(row));
  assert.ok(cells, `docs/reference.md's "${heading}" has no row for \`${row}\``);
  return new Set(cells.slice(1).flatMap(codeNamesIn));
}

test("every key of scenario.schema.json is documented in docs/reference.md", () => {
  const objects = keyedObjects(SCHEMA);
  assert.ok(objects.size >= 5 && (objects.get("$defs/turn")?.length ?? 0) > 10, "the schema walk found too little; it no longer matches the schema's shape");
  const missing: string[] = [];
  for (const [path, keys] of objects) {
    const place = DOCUMENTED_IN[path];
    if (place === undefined) {
      missing.push(`the keys at ${path || "the top level"} (${keys.join(", ")}): add a section for them and name it in DOCUMENTED_IN`);
      continue;
    }
    const documented = place.row === undefined ? firstColumn(place.heading) : rowNames(place.heading, place.row);
    for (const key of keys) if (!documented.has(key)) missing.push(`\`${key}\` (${path || "top level"}) in "${place.heading}"${place.row ? `, row \`${place.row}\`` : ""}`);
  }
  assert.deepEqual(missing, [], `docs/reference.md does not document:\n${missing.join("\n")}`);
});

test("the reference's scenario and turn tables name no key the schema lacks", () => {
  const objects = keyedObjects(SCHEMA);
  for (const [path, { heading, row }] of Object.entries(DOCUMENTED_IN)) {
    if (row !== undefined) continue;
    const keys = new Set(objects.get(path));
    assert.deepEqual([...firstColumn(heading)].filter((name) => !keys.has(name)), [], `"${heading}" names keys that ${path || "the top level"} of the schema does not have`);
  }
});

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : [],
  );
}

/** The per-flow pins' suffixes, from the code that builds their names: `${flow.envPrefix}_CURRENT_DATE`. */
function pinSuffixes(): Set<string> {
  const text = sources(join(ROOT, "src")).map((file) => readFileSync(file, "utf8")).join("\n");
  return new Set([...text.matchAll(/\$\{[\w.]*envPrefix\}_([A-Z][A-Z0-9_]*)/g)].map((match) => match[1]!));
}

/** Every variable src/config.ts reads, validates or defaults, and every one .env.example lists; a flow's pin as `<FLOW>_…`. */
function environmentVariables(): Set<string> {
  const config = readFileSync(join(ROOT, "src", "config.ts"), "utf8");
  const read = [...config.matchAll(/env\[\s*"([A-Z][A-Z0-9_]*)"\s*\]/g)].map((match) => match[1]!);
  // DEFAULTS, the environment's schema and its hints: `  PORT: …` at the start of a line.
  const declared = [...config.matchAll(/^\s+([A-Z][A-Z0-9_]*):\s/gm)].map((match) => match[1]!);
  const example = [...readFileSync(join(ROOT, ".env.example"), "utf8").matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]!);
  const suffixes = [...pinSuffixes()];
  assert.ok(read.length > 10 && declared.length > 15 && example.length > 15, "found too few variables; the patterns no longer match src/config.ts or .env.example");
  assert.ok(suffixes.length >= 2, `found the pin suffixes ${suffixes.join(", ")} only; the pattern no longer matches how the code names pins`);
  const asDocumented = (name: string) => {
    const suffix = suffixes.find((candidate) => name.endsWith(`_${candidate}`));
    return suffix === undefined ? name : `<FLOW>_${suffix}`;
  };
  return new Set([...read, ...declared, ...example, ...suffixes.map((suffix) => `<FLOW>_${suffix}`)].map(asDocumented));
}

test("every environment variable src/config.ts reads and .env.example lists is in the reference's Environment table", () => {
  const documented = firstColumn("Environment");
  const missing = [...environmentVariables()].filter((name) => !documented.has(name)).sort();
  assert.deepEqual(missing, [], `docs/reference.md's Environment table lacks ${missing.join(", ")}`);
});

test("the reference's Environment table names no variable the code does not know", () => {
  const known = environmentVariables();
  assert.deepEqual([...firstColumn("Environment")].filter((name) => !known.has(name)).sort(), []);
});

test("the run settings the reference lists as safe in a scenario's env are exactly those the loader lets through", () => {
  const listed = [...firstColumn("What a scenario's `env` may set")].filter((name) => !name.startsWith("<FLOW>_"));
  assert.deepEqual(listed.sort(), [...SCENARIO_RUN_SETTINGS].sort());
});
