import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : [],
  );
}

test(".env.example lists every environment variable the code reads by name", () => {
  const example = readFileSync(".env.example", "utf8");
  const listed = new Set([...example.matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]!));
  const read = new Set(
    sources("src").flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/env\[\s*"([A-Z][A-Z0-9_]*)"\s*\]/g)].map((match) => match[1]!),
    ),
  );
  assert.ok(
    read.size > 10,
    `found only ${read.size} variables read in src/; the pattern no longer matches how the code reads them`,
  );
  assert.deepEqual([...read].filter((name) => !listed.has(name)).sort(), []);
});
