import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { errorCatalogue } from "../src/errors.ts";

// The error table and the start-up codes are documented in docs/reference/http-api.md ("Errors").
const reference = readFileSync(new URL("../docs/reference/http-api.md", import.meta.url), "utf8");

test("every error code with an HTTP status is in the reference's error table with that status", () => {
  for (const [code, { status }] of Object.entries(errorCatalogue)) {
    if (status === undefined) continue;
    assert.match(
      reference,
      new RegExp(`^\\| ${status} \\| \`${code}\` \\|`, "m"),
      `docs/reference/http-api.md lacks the row for ${code} (${status})`,
    );
  }
});

test("every start-up error code is named in the reference", () => {
  for (const [code, { status }] of Object.entries(errorCatalogue)) {
    if (status === undefined)
      assert.ok(reference.includes(`\`${code}\``), `docs/reference/http-api.md does not name ${code}`);
  }
});

test("the reference's error table names no code the catalogue lacks", () => {
  const documented = [...reference.matchAll(/^\| \d{3} \| `([a-z_]+)` \|/gm)].map((match) => match[1]!);
  assert.deepEqual(
    documented.filter((code) => !(code in errorCatalogue)),
    [],
  );
  assert.equal(documented.length, Object.values(errorCatalogue).filter((entry) => entry.status !== undefined).length);
});
