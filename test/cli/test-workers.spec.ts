import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test, type TestContext } from "node:test";
import { runFlowcheck } from "../support/child-run.ts";
import { tempDir } from "../support/temp-path.ts";
import { writeTwoFlowProject } from "../support/two-flow-project.ts";

// flowcheck test --workers N plays the spec files in N processes and tells them as one run: the
// same lines, counts, exit code and results as in one process.

/**
 * Two flows' specs, each over two scenario files, and a spec of plain tests with one failing
 * assertion; every spec notes the process it ran in.
 */
async function project(t: TestContext): Promise<string> {
  const dir = await tempDir("test-workers");
  t.after(dir.remove);
  const notesPid = `import { appendFileSync } from "node:fs";\nappendFileSync("pids.txt", process.pid + "\\n");\n`;
  writeTwoFlowProject(dir.path, { specHead: notesPid });
  writeFileSync(
    join(dir.path, "specs", "plain.spec.ts"),
    notesPid +
      `import assert from "node:assert/strict";\nimport { describe, test } from "node:test";\n` +
      `describe("plain", () => {\n` +
      `  test("adds", () => assert.equal(1 + 1, 2));\n` +
      `  test("compares", () => assert.deepEqual({ a: 1, b: [1, 2] }, { a: 1, b: [1, 3] }));\n` +
      `  test.skip("waits", () => {});\n` +
      `});\n` +
      `test("alone", () => {});\n`,
  );
  return dir.path;
}

/**
 * The lines of a run's output that do not change from run to run, each once: no durations, and no
 * stack frames (node's own differ with the order the process ran things in).
 */
const steady = (output: string) =>
  output
    .split("\n")
    .filter((line) => !/^\s+at /.test(line))
    .map((line) => line.replace(/ \(\d+(\.\d+)?ms\)/, "").replace(/^ℹ duration_ms .*/, "ℹ duration_ms"))
    .sort();

interface Conversation {
  file: string;
  flowName: string;
  outcome: string;
  turns: { label: string; outcome: string }[];
}

function conversationsIn(root: string): string[] {
  const results = JSON.parse(readFileSync(join(root, "test/.tmp/run-results.json"), "utf8")) as {
    conversations: Conversation[];
  };
  return results.conversations
    .map(({ file, flowName, outcome, turns }) => {
      const told = turns.map((turn) => `${turn.label} ${turn.outcome}`).join(", ");
      return `${file} ${flowName} ${outcome}: ${told}`;
    })
    .sort();
}

const processesIn = (root: string) => new Set(readFileSync(join(root, "pids.txt"), "utf8").trim().split("\n")).size;

describe("flowcheck test --workers", { concurrency: 3 }, () => {
  test("two processes tell the run one process tells: the same lines, counts, failure, exit code and conversations", async (t) => {
    const root = await project(t);
    const one = await runFlowcheck(["test", "specs", "--test-reporter=spec"], {}, undefined, root);
    const oneConversations = conversationsIn(root);
    assert.equal(processesIn(root), 1);
    writeFileSync(join(root, "pids.txt"), "");

    const two = await runFlowcheck(["test", "specs", "--workers", "2", "--test-reporter=spec"], {}, undefined, root);

    assert.equal(processesIn(root), 2);
    assert.equal(one.code, 1, one.stdout + one.stderr);
    assert.equal(two.code, 1, two.stdout + two.stderr);
    assert.deepEqual(steady(two.stdout), steady(one.stdout));
    assert.match(two.stdout, /^ℹ tests 20$/m);
    assert.match(two.stdout, /^ℹ fail 1$/m);
    // The failing assertion prints its diff, as in one process.
    assert.match(two.stdout, /\+\s+2\n\s+-\s+3/);
    assert.deepEqual(conversationsIn(root), oneConversations);
    assert.equal(oneConversations.length, 4);
  });

  test("node:test's reporters see one run: TAP numbers the top-level tests 1 to n, in one plan", async (t) => {
    const root = await project(t);

    const { code, stdout, stderr } = await runFlowcheck(
      ["test", "specs", "--workers", "2", "--test-reporter=tap"],
      {},
      undefined,
      root,
    );

    assert.equal(code, 1, stdout + stderr);
    assert.equal(processesIn(root), 2);
    const numbers = [...stdout.matchAll(/^(?:not )?ok (\d+) - /gm)].map((match) => Number(match[1]));
    assert.deepEqual(
      numbers,
      numbers.map((_, index) => index + 1),
    );
    assert.match(stdout, new RegExp(`^1\\.\\.${numbers.length}$`, "m"));
    assert.equal(stdout.match(/^# tests /gm)?.length, 1);
  });

  test("name filters reach every process: two play what one plays", async (t) => {
    const root = await project(t);
    const filters = ["--test-name-pattern=relay-one", "--test-name-pattern=adds", "--test-reporter=spec"];
    const one = await runFlowcheck(["test", "specs", ...filters], {}, undefined, root);

    const two = await runFlowcheck(["test", "specs", "--workers", "2", ...filters], {}, undefined, root);

    assert.equal(one.code, 0, one.stdout + one.stderr);
    assert.equal(two.code, 0, two.stdout + two.stderr);
    assert.deepEqual(steady(two.stdout), steady(one.stdout));
    assert.match(two.stdout, /✔ RelayFlow: relay-one/);
    assert.match(two.stdout, /✔ adds/);
    assert.doesNotMatch(two.stdout, /relay-two|compares/);
  });

  test("a worker process that dies is a failing test naming its files; the other process's tests are still told", async (t) => {
    const dir = await tempDir("test-workers-exit");
    t.after(dir.remove);
    writeFileSync(join(dir.path, "stays.spec.ts"), `import { test } from "node:test";\ntest("stays", () => {});\n`);
    // The larger file goes to the worker: this process plays the lighter part.
    writeFileSync(
      join(dir.path, "exits.spec.ts"),
      `import { test } from "node:test";\n// ${"padding ".repeat(40)}\ntest("exits", () => process.exit(7));\n`,
    );

    const { code, stdout, stderr } = await runFlowcheck(["test", ".", "--workers", "2"], {}, undefined, dir.path);

    assert.equal(code, 1, stdout + stderr);
    assert.match(stdout, /✔ stays/);
    assert.match(
      stdout,
      /✖ flowcheck test --workers: the process playing 1 of the spec files exited with code 7 before it had told all its tests/,
    );
    assert.match(stdout, /exits\.spec\.ts\. Its own output above says why/);
    assert.match(stdout, /^ℹ fail 1$/m);
  });

  test("a run that calls the provider is refused --workers before anything plays: its limits hold in one process", async (t) => {
    const root = await project(t);

    const { code, stdout, stderr } = await runFlowcheck(
      ["test", "specs", "--workers", "2"],
      { FLOW_MODEL: "live", OPENAI_API_KEY: "unused", OPENAI_BASE_URL: "http://127.0.0.1:9/v1" },
      undefined,
      root,
    );

    assert.equal(code, 2, stdout + stderr);
    assert.match(
      stdout + stderr,
      /--workers 2 with FLOW_MODEL=live: a run that calls the provider plays in one process/,
    );
    assert.throws(() => readFileSync(join(root, "pids.txt")), { code: "ENOENT" });
  });

  test("--workers takes a whole number of processes", async () => {
    const { code, stderr } = await runFlowcheck(["test", "specs", "--workers", "0"]);
    assert.equal(code, 2);
    assert.match(stderr, /--workers takes a whole number of processes, got 0\./);
  });
});
