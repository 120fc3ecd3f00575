import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { test } from "node:test";
import { tempDir } from "../support/temp-path.ts";
import { runCommand } from "../testing/live/child-run.ts";

const ROOT = resolve(import.meta.dirname, "..", "..");

/** Runs run-specs with `args`, its temporary files in `tmp`. */
function runSpecs(args: string[], tmp: string): Promise<{ code: number | null; stdout: string; pid: number | undefined }> {
  const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: tmp };
  // This test runs under node:test itself; the child must run as a top-level test run.
  delete env["NODE_TEST_CONTEXT"];
  return new Promise((resolvePromise, reject) => {
    // In `tmp` too, so its test/.tmp/run-results.json is written there, not over the project's.
    const child = spawn(process.execPath, [join(ROOT, "src", "cli", "run-specs.mjs"), ...args], { cwd: tmp, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.resume();
    child.on("error", reject);
    child.on("close", (code) => resolvePromise({ code, stdout, pid: child.pid }));
  });
}

test("run-specs runs the spec files in one process per share, reports a file that cannot load as one failing test, and removes its share files", async () => {
  const dir = await tempDir("run-specs");
  try {
    const pids = join(dir.path, "pids.txt");
    writeFileSync(pids, "");
    for (const name of ["a", "b", "c", "d"]) {
      writeFileSync(
        join(dir.path, `${name}.spec.ts`),
        `import { appendFileSync } from "node:fs";\nimport { test } from "node:test";\ntest("${name} runs", () => appendFileSync(${JSON.stringify(pids)}, process.pid + "\\n"));\n`,
      );
    }
    writeFileSync(join(dir.path, "broken.spec.ts"), `throw new Error("broken on purpose");\n`);
    // A temporary folder of its own: other runs of run-specs on the machine add and remove share files in the shared one.
    const tmp = join(dir.path, "tmp");
    mkdirSync(tmp);

    // TAP by name: from Node 23 on, the default reporter is spec even when the output is a pipe.
    const { code, stdout } = await runSpecs([dir.path, "--test-concurrency=2", "--test-reporter=tap"], tmp);

    assert.equal(code, 1, stdout);
    assert.match(stdout, /^not ok \d+ - .*broken\.spec\.ts loads$/m);
    assert.match(stdout, /broken on purpose/);
    for (const name of ["a", "b", "c", "d"]) assert.match(stdout, new RegExp(`^ok \\d+ - ${name} runs$`, "m"));
    assert.match(stdout, /^# pass 4$/m);
    assert.match(stdout, /^# fail 1$/m);
    const ran = readFileSync(pids, "utf8").trim().split("\n");
    assert.equal(ran.length, 4);
    assert.equal(new Set(ran).size, 2, "five files in two processes");
    assert.deepEqual(readdirSync(tmp).filter((name) => name.startsWith("flowcheck-specs-")), [], "the share files are removed");
  } finally {
    dir.remove();
  }
});

test("a TypeScript module given to --import loads ahead of the specs, in the processes that run them", async () => {
  const dir = await tempDir("run-specs-import");
  try {
    writeFileSync(join(dir.path, "setup.ts"), `const ran: boolean = true;\n(globalThis as { setupRan?: boolean }).setupRan = ran;\n`);
    writeFileSync(
      join(dir.path, "setup.spec.ts"),
      `import assert from "node:assert/strict";\nimport { test } from "node:test";\ntest("the setup ran first", () => assert.equal((globalThis as { setupRan?: boolean }).setupRan, true));\n`,
    );
    const tmp = join(dir.path, "tmp");
    mkdirSync(tmp);

    const setup = pathToFileURL(join(dir.path, "setup.ts")).href;
    const { code, stdout } = await runSpecs([join(dir.path, "setup.spec.ts"), "--import", setup, "--test-reporter=tap"], tmp);

    assert.equal(code, 0, stdout);
    assert.match(stdout, /^ok \d+ - the setup ran first$/m);
  } finally {
    dir.remove();
  }
});

test("one spec file runs in the process run-specs starts, with no node --test process between, and reports and fails as under it", async () => {
  const dir = await tempDir("run-specs-one");
  try {
    const parent = join(dir.path, "parent.txt");
    writeFileSync(
      join(dir.path, "one.spec.ts"),
      `import { writeFileSync } from "node:fs";\nimport { test } from "node:test";\n` +
        `test("records its parent", () => writeFileSync(${JSON.stringify(parent)}, String(process.ppid)));\n` +
        `test("fails on purpose", () => { throw new Error("failed on purpose"); });\n` +
        `test("not selected", () => {});\n`,
    );
    const tmp = join(dir.path, "tmp");
    mkdirSync(tmp);

    const { code, stdout, pid } = await runSpecs([join(dir.path, "one.spec.ts"), "--test-name-pattern", "parent|purpose", "--test-reporter=tap"], tmp);

    assert.equal(code, 1, stdout);
    assert.equal(readFileSync(parent, "utf8"), String(pid), "the test process is run-specs' own child");
    assert.match(stdout, /^ok \d+ - records its parent$/m);
    assert.match(stdout, /^not ok \d+ - fails on purpose$/m);
    // Node 20 reports a test the pattern leaves out as skipped, later versions not at all: never as passed.
    assert.doesNotMatch(stdout, /^ok \d+ - not selected$/m);
    assert.match(stdout, /^# pass 1$/m);
    assert.match(stdout, /^# fail 1$/m);
    assert.deepEqual(readdirSync(tmp).filter((name) => name.startsWith("flowcheck-specs-")), [], "the share file is removed");
  } finally {
    dir.remove();
  }
});

test("a green run closes with six lines: its totals, a line per flow with what its scenarios reached, and where its results and report are", async () => {
  const dir = await tempDir("run-specs-summary");
  try {
    const from = (path: string) => JSON.stringify(join(ROOT, path));
    const flows = [
      { flow: "RelayFlow", module: "relay-flow", turns: [{ label: "greets", input: "hello", expectedActiveStep: "FarewellStep" }, { label: "ends", input: "bye", expectedActiveStep: "FarewellStep", completed: true }] },
      { flow: "TallyFlow", module: "tally-flow", turns: [{ label: "counts", input: "one", expectedActiveStep: "TallyStep" }] },
    ];
    for (const { flow, module, turns } of flows) {
      mkdirSync(join(dir.path, module));
      writeFileSync(join(dir.path, module, `${module}.scenario.json`), JSON.stringify({ flowName: flow, turns }));
      const entries = `${module.split("-")[0]}Flows`;
      writeFileSync(
        join(dir.path, `${module}.spec.ts`),
        `import { describeFlowScenarios } from ${from("src/testing/index.ts")};\nimport { ${entries} } from ${from(`test/support/${module}.ts`)};\n` +
          `describeFlowScenarios("${flow}", { flows: ${entries}, dir: "${module}" });\n`,
      );
    }
    const summary = [
      "2 conversations: 2 passed, 0 failed, 0 skipped; turns 3 passed, 0 failed, 0 skipped; judge none graded; tokens 0",
      "flows: the steps and tools the scenarios reached:",
      "  RelayFlow  2/2 steps · 2/2 tools",
      "  TallyFlow  1/1 steps · 1/1 tools",
      "results: test/.tmp/run-results.json (flow coverage: test/.tmp/flow-coverage.json)",
      "report:  test/.tmp/report.html",
    ];
    // --checklist shows every flow's table: these flows are registered nowhere, so they have none.
    for (const args of [[], ["--checklist"]]) {
      // In the test's folder, so what it writes to test/.tmp/ is not written over the project's.
      const run = await runCommand(process.execPath, [join(ROOT, "src", "cli", "run-specs.mjs"), ...args, "relay-flow.spec.ts", "tally-flow.spec.ts"], {}, undefined, dir.path);
      assert.equal(run.code, 0, run.stdout + run.stderr);
      const lines = run.stdout.trimEnd().split("\n");
      const closing = lines.slice(lines.findLastIndex((line) => /^\d+ conversations?: /.test(line)));
      assert.deepEqual(closing, summary, run.stdout);
    }
  } finally {
    dir.remove();
  }
});
