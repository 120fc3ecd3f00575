import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test, type TestContext } from "node:test";
import { tempDir } from "../support/temp-path.ts";
import { ROOT, runFlowcheck, type ChildRun } from "../support/child-run.ts";
import { writeTwoFlowProject } from "../support/two-flow-project.ts";

// flowcheck test reads the environment once, when it plans the run: every suite of every spec, and
// every conversation, derives its configuration from that one read. Counted in a real run by
// test/support/count-environment-reads.mjs, which counts the configuration module's reads of
// process.env in the child.

const COUNTER = join(ROOT, "test/support/count-environment-reads.mjs");
const CONFIG_MODULE = JSON.stringify(join(ROOT, "src/config.ts"));
/**
 * flowcheck test in a copy of the project of its own, counting the environment's reads in every
 * process it starts, and how many processes counted.
 */
async function counted(
  t: TestContext,
  { extraSpec, args = [] }: { extraSpec?: string; args?: string[] } = {},
): Promise<ChildRun & { reads: number; processes: number; cwd: string }> {
  const cwd = await tempDir("environment-read-once");
  t.after(cwd.remove);
  // Two flows' specs over four scenario files, one with env defaults of its own.
  writeTwoFlowProject(cwd.path, { relayEnv: { RELAY_FLOW_CURRENT_DATE: "2027-07-15T00:00:00.000Z" } });
  if (extraSpec) writeFileSync(join(cwd.path, "specs", "rereads.spec.ts"), extraSpec);
  const reads = join(cwd.path, "reads.txt");
  const child = await runFlowcheck(
    ["test", "specs", ...args],
    { NODE_OPTIONS: `--import ${COUNTER}`, ENVIRONMENT_READS_FILE: reads },
    undefined,
    cwd.path,
  );
  assert.ok(existsSync(reads), `the child counted nothing: ${child.stdout}${child.stderr}`);
  const counts = readFileSync(reads, "utf8").trim().split("\n").map(Number);
  return { ...child, reads: counts.reduce((sum, count) => sum + count, 0), processes: counts.length, cwd: cwd.path };
}

describe("the environment is read once per flowcheck test", { concurrency: 3 }, () => {
  test("a run of two flows' specs and four conversations, one with env defaults, reads the environment once", async (t) => {
    const run = await counted(t);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const results = JSON.parse(readFileSync(join(run.cwd, "test/.tmp/run-results.json"), "utf8")) as {
      conversations: { flowName: string; outcome: string }[];
    };
    assert.deepEqual(
      results.conversations.map((conversation) => `${conversation.flowName} ${conversation.outcome}`).sort(),
      ["RelayFlow passed", "RelayFlow passed", "TallyFlow passed", "TallyFlow passed"],
    );
    assert.equal(run.processes, 1);
    assert.equal(run.reads, 1);
  });

  test("a spec that reads the environment again is counted: the count is no constant", async (t) => {
    const rereads =
      `import { test } from "node:test";\nimport { loadConfig } from ${CONFIG_MODULE};\n` +
      `test("reads the environment itself", () => { loadConfig(); });\n`;
    const run = await counted(t, { extraSpec: rereads });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(run.reads, 2);
  });

  test("a run in two processes (--workers 2) reads the environment once: the other process is handed it", async (t) => {
    const run = await counted(t, { args: ["--workers", "2"] });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(run.processes, 2);
    const results = JSON.parse(readFileSync(join(run.cwd, "test/.tmp/run-results.json"), "utf8")) as {
      conversations: unknown[];
    };
    assert.equal(results.conversations.length, 4);
    assert.equal(run.reads, 1);
  });
});
