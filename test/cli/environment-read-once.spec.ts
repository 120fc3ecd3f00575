import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test, type TestContext } from "node:test";
import { tempDir } from "../support/temp-path.ts";
import { ROOT, runFlowcheck, type ChildRun } from "../support/child-run.ts";

// flowcheck test reads the environment once, when it plans the run: every suite of every spec, and
// every conversation, derives its configuration from that one read. Counted in a real run by
// test/support/count-environment-reads.mjs, which counts the configuration module's reads of
// process.env in the child.

const COUNTER = join(ROOT, "test/support/count-environment-reads.mjs");
const from = (path: string) => JSON.stringify(join(ROOT, path));

const turns = (step: string, completes: boolean) => [
  { label: "first", input: "hello", expectedActiveStep: step },
  { label: "second", input: "bye", expectedActiveStep: step, ...(completes ? { completed: true } : {}) },
];

/** Two flows' specs over four scenario files, one with env defaults of its own. */
function writeProject(root: string): void {
  mkdirSync(join(root, "journeys"), { recursive: true });
  mkdirSync(join(root, "specs"));
  const scenario = (name: string, body: object) =>
    writeFileSync(join(root, "journeys", `${name}.scenario.json`), JSON.stringify(body));
  scenario("relay-one", { flowName: "RelayFlow", turns: turns("FarewellStep", true) });
  scenario("relay-two", {
    flowName: "RelayFlow",
    env: { RELAY_FLOW_CURRENT_DATE: "2027-07-15T00:00:00.000Z" },
    turns: turns("FarewellStep", true),
  });
  scenario("tally-one", { flowName: "TallyFlow", turns: turns("TallyStep", false) });
  scenario("tally-two", { flowName: "TallyFlow", turns: turns("TallyStep", false) });
  // Each spec knows both flows, so leaves the other flow's files to the other spec.
  const spec = (file: string, flow: string) =>
    writeFileSync(
      join(root, "specs", file),
      `import { describeFlowScenarios } from ${from("src/testing/index.ts")};\n` +
        `import { relayFlows } from ${from("test/support/relay-flow.ts")};\n` +
        `import { tallyFlows } from ${from("test/support/tally-flow.ts")};\n` +
        `describeFlowScenarios("${flow}", { flows: [...relayFlows, ...tallyFlows], dir: "journeys" });\n`,
    );
  spec("relay-flow.spec.ts", "RelayFlow");
  spec("tally-flow.spec.ts", "TallyFlow");
}

/** flowcheck test in a copy of the project of its own, counting the environment's reads. */
async function counted(t: TestContext, extraSpec?: string): Promise<ChildRun & { reads: number; cwd: string }> {
  const cwd = await tempDir("environment-read-once");
  t.after(cwd.remove);
  writeProject(cwd.path);
  if (extraSpec) writeFileSync(join(cwd.path, "specs", "rereads.spec.ts"), extraSpec);
  const reads = join(cwd.path, "reads.txt");
  const child = await runFlowcheck(
    ["test", "specs"],
    { NODE_OPTIONS: `--import ${COUNTER}`, ENVIRONMENT_READS_FILE: reads },
    undefined,
    cwd.path,
  );
  assert.ok(existsSync(reads), `the child counted nothing: ${child.stdout}${child.stderr}`);
  return { ...child, reads: Number(readFileSync(reads, "utf8")), cwd: cwd.path };
}

describe("the environment is read once per flowcheck test", { concurrency: 2 }, () => {
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
    assert.equal(run.reads, 1);
  });

  test("a spec that reads the environment again is counted: the count is no constant", async (t) => {
    const rereads =
      `import { test } from "node:test";\nimport { loadConfig } from ${from("src/config.ts")};\n` +
      `test("reads the environment itself", () => { loadConfig(); });\n`;
    const run = await counted(t, rereads);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(run.reads, 2);
  });
});
