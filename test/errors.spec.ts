import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { errorCatalogue } from "../src/errors.ts";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");

test("every error code with an HTTP status is in the README's error table with that status", () => {
  for (const [code, { status }] of Object.entries(errorCatalogue)) {
    if (status === undefined) continue;
    assert.match(readme, new RegExp(`^\\| ${status} \\| \`${code}\` \\|`, "m"), `README lacks the row for ${code} (${status})`);
  }
});

test("every start-up error code is named in the README", () => {
  for (const [code, { status }] of Object.entries(errorCatalogue)) {
    if (status === undefined) assert.ok(readme.includes(`\`${code}\``), `README does not name ${code}`);
  }
});

test("the README's error table names no code the catalogue lacks", () => {
  const documented = [...readme.matchAll(/^\| \d{3} \| `([a-z_]+)` \|/gm)].map((match) => match[1]!);
  assert.deepEqual(documented.filter((code) => !(code in errorCatalogue)), []);
  assert.equal(documented.length, Object.values(errorCatalogue).filter((entry) => entry.status !== undefined).length);
});
