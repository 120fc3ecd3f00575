import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { tempDir } from "../support/temp-path.ts";
import { ROOT, runCommand } from "../testing/live/child-run.ts";

test("run-specs makes the folder a reporter writes to, so a JUnit report in a fresh checkout's test/.tmp/ is written", async () => {
  const dir = await tempDir("nightly-job");
  try {
    writeFileSync(join(dir.path, "one.spec.ts"), `import { test } from "node:test";\ntest("one passes", () => {});\n`);
    const junit = join(dir.path, "not", "yet", "there", "junit.xml");
    const run = await runCommand(process.execPath, [
      join(ROOT, "src", "cli", "run-specs.mjs"),
      dir.path,
      "--test-reporter=spec",
      "--test-reporter-destination=stdout",
      "--test-reporter=junit",
      "--test-reporter-destination",
      junit,
    ], {}, undefined, dir.path);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.ok(existsSync(junit), run.stderr);
    assert.match(readFileSync(junit, "utf8"), /<testcase name="one passes"/);
  } finally {
    dir.remove();
  }
});

test("the nightly job is npm run test:nightly: live and judged unless told otherwise, JUnit in test/.tmp/", () => {
  const scripts = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
  const nightly = scripts["test:nightly"] ?? "";
  assert.match(nightly, /^FLOW_MODEL=\$\{FLOW_MODEL:-live\} JUDGE=\$\{JUDGE:-required\} node src\/cli\/run-specs\.mjs test\/flows /);
  assert.match(nightly, /--test-reporter=junit --test-reporter-destination=test\/\.tmp\/junit\.xml/);
});

test("the scheduled workflow runs npm run test:nightly and keeps test/.tmp, hidden folder and all", () => {
  const workflow = readFileSync(join(ROOT, ".github", "workflows", "live.yml"), "utf8");
  assert.match(workflow, /^\s+run: npm run test:nightly\b/m);
  assert.match(workflow, /^\s+path: test\/\.tmp\/$/m);
  assert.match(workflow, /^\s+include-hidden-files: true$/m);
});
