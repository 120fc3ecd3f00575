import assert from "node:assert/strict";
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { after, before, describe, test } from "node:test";
import { printedFiles } from "../support/markdown.ts";
import { tempDir } from "../support/temp-path.ts";
import { runCommand, tapResults, type ChildRun } from "../support/child-run.ts";

// The guide "Your first flow and scenario, step by step" (docs/first-flow.md, which the README's
// section of that name points to) prints every file of a new flow. This builds exactly those files
// in a copy of the repository and runs the commands the guide gives on them, so that a change to
// the flow API that breaks the guide breaks this test too.

const ROOT = resolve(import.meta.dirname, "..", "..");
const HEADING = "Your first flow and scenario, step by step";
const README = readFileSync(join(ROOT, "README.md"), "utf8");
const GUIDE_FILE = readFileSync(join(ROOT, "docs", "first-flow.md"), "utf8");
const GUIDE = GUIDE_FILE.slice(GUIDE_FILE.indexOf(`# ${HEADING}\n`));

let copy: { path: string; remove(): void };
const files = printedFiles(GUIDE);

before(async () => {
  copy = await tempDir("readme-example");
  for (const part of [
    "src",
    "package.json",
    "tsconfig.json",
    "tsconfig.contract.json",
    "scenarios/scenario.schema.json",
    "flowcheck.config.schema.json",
    "flowcheck.config.json",
  ]) {
    cpSync(join(ROOT, part), join(copy.path, part), { recursive: true });
  }
  symlinkSync(join(ROOT, "node_modules"), join(copy.path, "node_modules"), "dir");
  for (const [path, text] of files) {
    mkdirSync(dirname(join(copy.path, path)), { recursive: true });
    writeFileSync(join(copy.path, path), text);
  }
});

after(() => copy.remove());

/** `npm run <script> [-- args]` in the copy, as a user types it there. */
function inCopy(script: string, ...args: string[]): Promise<ChildRun> {
  return runCommand(
    "npm",
    ["run", "--silent", script, ...(args.length ? ["--", ...args] : [])],
    {},
    undefined,
    copy.path,
  );
}

test("the README's section on the first flow points to the guide that prints its files", () => {
  assert.ok(GUIDE_FILE.startsWith(`# ${HEADING}\n`), `docs/first-flow.md does not start with "# ${HEADING}"`);
  const start = README.indexOf(`### ${HEADING}\n`);
  assert.notEqual(start, -1, `README.md has no heading "### ${HEADING}"`);
  const section = README.slice(start, README.indexOf("\n#", start + 1));
  assert.match(section, /\]\(docs\/first-flow\.md\)/, "the README's section does not link to docs/first-flow.md");
});

test("the guide prints the flow's steps, flow, scripts, entry, registration, scenario and spec", () => {
  assert.deepEqual([...files.keys()].sort(), [
    "scenarios/feedback-flow.scenario.json",
    "src/flows/feedback/comment-step.ts",
    "src/flows/feedback/feedback-flow-scripts.ts",
    "src/flows/feedback/feedback-flow.ts",
    "src/flows/feedback/index.ts",
    "src/flows/feedback/rating-step.ts",
    "src/flows/team-flows.ts",
    "test/flows/feedback-flow.spec.ts",
  ]);
});

// The typecheck and the check only read the copy; the runs of test:flows and test:strength all write
// its test/.tmp, so they go one after the other, beside the rest.
describe("the guide's commands in the copy", { concurrency: 2 }, () => {
  describe("npm run test:flows and test:strength, one run at a time", { concurrency: 1 }, () => {
    test("npm run test:flows runs the printed scenario through the printed spec, green", async () => {
      const run = await inCopy("test:flows", "--test-reporter=tap");
      assert.equal(run.code, 0, run.stdout + run.stderr);
      const results = tapResults(run.stdout);
      assert.equal(results.get("FeedbackFlow: feedback-flow")?.ok, true, run.stdout);
      for (const name of ["1. rating out of range", "2. rating saved", "3. comment ends the run", "final state"])
        assert.deepEqual(results.get(name)?.ok, true, name);
      assert.match(run.stdout, /^# fail 0$/m);
      assert.match(run.stdout, /^ {2}FeedbackFlow +2\/2 steps · 2\/2 tools · checklist /m);
    });

    test("npm run test:flows -- scenarios/feedback-flow.scenario.json runs that file alone", async () => {
      const run = await inCopy("test:flows", "scenarios/feedback-flow.scenario.json", "--test-reporter=tap");
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.equal(tapResults(run.stdout).get("FeedbackFlow: feedback-flow")?.ok, true, run.stdout);
    });

    test("npm run test:strength -- scenarios/feedback-flow.scenario.json scores the printed flow against its mutants", async () => {
      const run = await inCopy("test:strength", "scenarios/feedback-flow.scenario.json");
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.match(run.stdout, /^FeedbackFlow: \d\.\d\d \(\d+ killed, \d+ timed out, \d+ survived/m);
    });
  });

  test("the printed files typecheck with the project's settings", async () => {
    const run = await inCopy("typecheck");
    assert.equal(run.code, 0, run.stdout + run.stderr);
  });

  test("npm run scenarios:check accepts the printed scenario, on the registered flow", async () => {
    const run = await inCopy("scenarios:check");
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /^ok {4}scenarios\/feedback-flow\.scenario\.json \(FeedbackFlow, 3 turns\)$/m);
  });
});
