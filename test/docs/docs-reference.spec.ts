import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { test } from "node:test";
import { ENVIRONMENT_VARIABLES } from "../../src/environment-variables.ts";
import { SCENARIO_RUN_SETTINGS } from "../../src/testing/scenario/scenario-env.ts";
import { ENVIRONMENT_PAGE, environmentTableIn, renderEnvironmentTable } from "../tools/environment-table.ts";
import { codeNamesIn, sectionOf, tableRowsOf } from "../support/markdown.ts";

// The reference documents every key a scenario file may hold (docs/reference/scenario-files.md) and
// every environment variable flowcheck reads (docs/reference/environment.md). These tests fail
// naming what is missing, so a key or variable added to the schema, src/environment-variables.ts or
// .env.example cannot go undocumented.

const ROOT = resolve(import.meta.dirname, "..", "..");
const SCENARIO_FILES_PAGE = "docs/reference/scenario-files.md";
const SCENARIO_FILES = readFileSync(join(ROOT, SCENARIO_FILES_PAGE), "utf8");
const SCHEMA: unknown = JSON.parse(readFileSync(join(ROOT, "scenarios", "scenario.schema.json"), "utf8"));

/**
 * Where each object of the schema is documented: the scenario files page's section (by heading)
 * whose table lists its keys in the first column, or, for an object nested in one key, the row of
 * that key.
 */
const DOCUMENTED_IN: Record<string, { heading: string; row?: string }> = {
  "": { heading: "Scenario keys" },
  "properties/cases/items": { heading: "Cases" },
  "$defs/turn": { heading: "Turn keys" },
  "$defs/turn/properties/expectToolCalls/items": { heading: "`expectToolCalls` calls" },
  "$defs/turn/properties/modelFault": { heading: "`modelFault` keys" },
  "$defs/executionEntry": { heading: "`finalExecution` entries" },
  "$defs/childRun": { heading: "`finalChildren` runs" },
  "$defs/memoryEntry": { heading: "`finalMemory` messages" },
  "$defs/memoryEntry/properties/toolCalls/items": { heading: "`finalMemory` messages", row: "toolCalls" },
  "properties/user": { heading: "Simulated users" },
  "properties/success": { heading: "`success` keys" },
};

// They constrain keys declared beside them (turns unless `user`, one of success's keys), declaring none.
const CONDITIONS = new Set(["if", "then", "else", "anyOf", "allOf", "oneOf", "not"]);

/** Every object in the schema that declares keys, by its path: `$defs/turn` → its keys. */
function keyedObjects(node: unknown, path: string[] = []): Map<string, string[]> {
  const found = new Map<string, string[]>();
  if (Array.isArray(node))
    node.forEach((item, index) =>
      keyedObjects(item, [...path, String(index)]).forEach((keys, at) => found.set(at, keys)),
    );
  else if (node !== null && typeof node === "object") {
    const properties = (node as Record<string, unknown>)["properties"];
    if (properties !== null && typeof properties === "object") found.set(path.join("/"), Object.keys(properties));
    for (const [key, value] of Object.entries(node))
      if (!CONDITIONS.has(key)) keyedObjects(value, [...path, key]).forEach((keys, at) => found.set(at, keys));
  }
  return found;
}

/** The names in backticks in the first cell of each row of the table(s) under `heading`. */
function firstColumn(heading: string): Set<string> {
  const section = sectionOf(SCENARIO_FILES, heading);
  assert.ok(section !== undefined, `${SCENARIO_FILES_PAGE} has no heading "${heading}"`);
  return new Set(tableRowsOf(section).flatMap((cells) => codeNamesIn(cells[0] ?? "")));
}

/** The names in backticks in the row of `heading`'s table whose first cell names `row`. */
function rowNames(heading: string, row: string): Set<string> {
  const section = sectionOf(SCENARIO_FILES, heading);
  assert.ok(section !== undefined, `${SCENARIO_FILES_PAGE} has no heading "${heading}"`);
  const cells = tableRowsOf(section).find((rowCells) => codeNamesIn(rowCells[0] ?? "").includes(row));
  assert.ok(cells, `${SCENARIO_FILES_PAGE}'s "${heading}" has no row for \`${row}\``);
  return new Set(cells.slice(1).flatMap(codeNamesIn));
}

test("every key of scenario.schema.json is documented in docs/reference/scenario-files.md", () => {
  const objects = keyedObjects(SCHEMA);
  assert.ok(
    objects.size >= 5 && (objects.get("$defs/turn")?.length ?? 0) > 10,
    "the schema walk found too little; it no longer matches the schema's shape",
  );
  const missing: string[] = [];
  for (const [path, keys] of objects) {
    const place = DOCUMENTED_IN[path];
    if (place === undefined) {
      missing.push(
        `the keys at ${path || "the top level"} (${keys.join(", ")}): add a section for them and name it in DOCUMENTED_IN`,
      );
      continue;
    }
    const documented = place.row === undefined ? firstColumn(place.heading) : rowNames(place.heading, place.row);
    for (const key of keys)
      if (!documented.has(key))
        missing.push(
          `\`${key}\` (${path || "top level"}) in "${place.heading}"${place.row ? `, row \`${place.row}\`` : ""}`,
        );
  }
  assert.deepEqual(missing, [], `${SCENARIO_FILES_PAGE} does not document:\n${missing.join("\n")}`);
});

test("the scenario files page's tables name no key the schema lacks", () => {
  const objects = keyedObjects(SCHEMA);
  for (const [path, { heading, row }] of Object.entries(DOCUMENTED_IN)) {
    if (row !== undefined) continue;
    const keys = new Set(objects.get(path));
    assert.deepEqual(
      [...firstColumn(heading)].filter((name) => !keys.has(name)),
      [],
      `"${heading}" names keys that ${path || "the top level"} of the schema does not have`,
    );
  }
});

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : [],
  );
}

/** Every variable src/ reads by name (`env["PORT"]`), and each per-flow one as `<FLOW>_…` (`${flow.envPrefix}_CURRENT_DATE`). */
function variablesRead(): Set<string> {
  const text = sources(join(ROOT, "src"))
    .map((file) => readFileSync(file, "utf8"))
    .join("\n");
  const named = [...text.matchAll(/env\[\s*"([A-Z][A-Z0-9_]*)"\s*\]/g)].map((match) => match[1]!);
  const perFlow = [...text.matchAll(/\$\{[\w.]*envPrefix\}_([A-Z][A-Z0-9_]*)/g)].map((match) => `<FLOW>_${match[1]!}`);
  assert.ok(
    named.length > 20 && perFlow.length >= 2,
    "found too few variables; the patterns no longer match how src/ reads the environment",
  );
  return new Set([...named, ...perFlow]);
}

test("docs/reference/environment.md's table is the one src/environment-variables.ts renders", () => {
  const table = environmentTableIn(readFileSync(ENVIRONMENT_PAGE, "utf8"));
  assert.ok(table !== undefined, "docs/reference/environment.md has no table of variables under ## Variables");
  assert.equal(
    table,
    renderEnvironmentTable(),
    "run `npx tsx test/tools/environment-table.ts --write` to write the table from src/environment-variables.ts",
  );
});

test("every environment variable src/ reads, and every one .env.example lists, is in src/environment-variables.ts", () => {
  const known = new Set(Object.keys(ENVIRONMENT_VARIABLES));
  assert.deepEqual([...variablesRead()].filter((name) => !known.has(name)).sort(), []);
  const example = [...readFileSync(join(ROOT, ".env.example"), "utf8").matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map(
    (match) => match[1]!,
  );
  assert.ok(example.length > 15, "found too few variables in .env.example");
  // The demo flows' pins, as `<FLOW>_CURRENT_DATE`.
  const asDocumented = (name: string) =>
    [...known].find((pattern) => pattern.startsWith("<FLOW>_") && name.endsWith(pattern.slice("<FLOW>".length))) ??
    name;
  assert.deepEqual(
    example
      .map(asDocumented)
      .filter((name) => !known.has(name))
      .sort(),
    [],
  );
});

test("the run settings the scenario files page lists as safe in a scenario's env are exactly those the loader lets through", () => {
  const listed = [...firstColumn("What a scenario's `env` may set")].filter((name) => !name.startsWith("<FLOW>_"));
  assert.deepEqual(listed.sort(), [...SCENARIO_RUN_SETTINGS].sort());
});
