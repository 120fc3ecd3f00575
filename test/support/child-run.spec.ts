import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { result, runNode, tapResults } from "./child-run.ts";
import { tempDir } from "./temp-path.ts";

// The messages as thrown, each read back from node:test's own TAP output in a child.
const MESSAGES = {
  plain: "no quote in it",
  single: "it's single",
  both: `it's "double" too`,
  every: 'it\'s "double" and `back`',
  escaped: "a back\\slash, a \\d and a\ttab",
  block: "first line\n  second line, indented",
};

test("tapResults reads a failure's message as thrown, in whichever quotes node:test's TAP reporter wrapped it, or as a block", async (t) => {
  const dir = await tempDir("tap-results");
  t.after(dir.remove);
  const spec = join(dir.path, "quotes.spec.mjs");
  writeFileSync(
    spec,
    `import { test } from "node:test";\n` +
      Object.entries(MESSAGES)
        .map(
          ([name, message]) =>
            `test(${JSON.stringify(name)}, () => { throw new Error(${JSON.stringify(message)}); });\n`,
        )
        .join("") +
      `test("skipped", (t) => t.skip("not today"));\n`,
  );
  const run = await runNode(["--test", "--test-reporter=tap", spec]);
  assert.equal(run.code, 1, run.stdout + run.stderr);
  const results = tapResults(run.stdout);
  for (const [name, message] of Object.entries(MESSAGES)) {
    const found = result(results, name);
    assert.equal(found.ok, false, name);
    assert.equal(found.error, message, `${name}, in:\n${run.stdout}`);
  }
  assert.deepEqual(result(results, "skipped"), { ok: true, directive: "SKIP not today", error: undefined });
});
