import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { test } from "node:test";
import { biome as runBiome, checkedFiles, unformattedFiles } from "./support/biome.ts";

// The code is formatted by Biome as biome.json says (120 columns; the data files, scenarios/ and
// test/fixtures/, are left as written). This runs the repository's own Biome on the whole tree,
// without --write, as `npm run format` would run it with --write. Biome's linter holds one rule, for
// src/ alone: no function over 50 lines.

const ROOT = resolve(import.meta.dirname, "..");
const FIX = "npm run format";

/** `biome <command> .` in the repository, with that reporter. */
const biome = (command: "format" | "lint", reporter: "summary" | "github") =>
  runBiome(ROOT, [command, `--reporter=${reporter}`, "."]);

test("every source and config file is formatted as biome.json says (npm run format formats them)", async () => {
  const { code, output } = await biome("format", "summary");
  const checked = checkedFiles(output);
  assert.ok(checked > 100, `Biome checked ${checked} files, not the repository's code:\n${output}`);
  const files = unformattedFiles(output);
  assert.deepEqual(
    files,
    [],
    `${files.length} of ${checked} files are not formatted as biome.json says; run \`${FIX}\` to format them:\n` +
      files.map((file) => `  ${file}`).join("\n"),
  );
  assert.equal(code, 0, `biome format failed without naming a file; \`${FIX}\` may fix it:\n${output}`);
});

// What the formatter cannot break: long strings and templates. Messages are split by hand where they
// pass 140 columns, so that a reader of src/ rarely scrolls sideways; this holds the count under 100.
const LONG = 140;
const MOST_LONG_LINES = 99;

test(`src/ has at most ${MOST_LONG_LINES} lines over ${LONG} characters (long messages are broken by hand)`, () => {
  const src = join(ROOT, "src");
  const files = readdirSync(src, { recursive: true, encoding: "utf8" }).filter((file) => /\.(ts|mjs)$/.test(file));
  assert.ok(files.length > 100, `found ${files.length} source files under src/, not the repository's code`);
  const long = files.flatMap((file) =>
    readFileSync(join(src, file), "utf8")
      .split("\n")
      .flatMap((line, index) => (line.length > LONG ? [`src/${file}:${index + 1} (${line.length})`] : [])),
  );
  assert.ok(
    long.length <= MOST_LONG_LINES,
    `${long.length} lines of src/ are over ${LONG} characters (at most ${MOST_LONG_LINES}); break the longest:\n` +
      long.join("\n"),
  );
});

test("no function in src/ is over 50 lines, as Biome's linter counts them (biome.json)", async () => {
  const { code, output } = await biome("lint", "github");
  // The github reporter prints a line per diagnostic: ::error title=<rule>,file=<path>,line=<n>,…::<message>
  const long = [...output.matchAll(/^::error title=([^,]+),file=([^,]+),line=(\d+)[^:]*::(.*)$/gm)].map(
    ([, rule, file, line, message]) => `${relative(ROOT, file!)}:${line}: ${message} (${rule})`,
  );
  assert.deepEqual(long, [], `split these functions into named parts:\n${long.join("\n")}`);
  assert.equal(code, 0, `biome lint failed without naming a function:\n${output}`);
});
