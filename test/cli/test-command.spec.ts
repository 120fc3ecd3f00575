import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, test } from "node:test";
import { tempDir } from "../support/temp-path.ts";
import { runFlowcheck } from "../support/child-run.ts";

const ROOT = resolve(import.meta.dirname, "..", "..");

/** Runs flowcheck test with `args`, its temporary files in `tmp`. */
function runSpecs(
  args: string[],
  tmp: string,
): Promise<{ code: number | null; stdout: string; pid: number | undefined }> {
  const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: tmp };
  // This test runs under node:test itself; the child must run as a top-level test run.
  delete env["NODE_TEST_CONTEXT"];
  // On GitHub's runner the child would annotate its failures as this run's and append to its job summary.
  delete env["GITHUB_ACTIONS"];
  delete env["GITHUB_STEP_SUMMARY"];
  return new Promise((resolvePromise, reject) => {
    // In `tmp` too, so its test/.tmp/run-results.json is written there, not over the project's.
    const child = spawn(process.execPath, [join(ROOT, "src", "cli", "flowcheck.mjs"), "test", ...args], {
      cwd: tmp,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.resume();
    child.on("error", reject);
    child.on("close", (code) => resolvePromise({ code, stdout, pid: child.pid }));
  });
}

// Each test has its own folder and its own flowcheck test child in it, so they run side by side.
describe("flowcheck test as a command", { concurrency: 3 }, () => {
  test("flowcheck test runs every spec file in its own process, one after another, and reports a file that cannot load as one failing test naming it", async () => {
    const dir = await tempDir("test-command");
    try {
      const pids = join(dir.path, "pids.txt");
      writeFileSync(pids, "");
      for (const name of ["a", "b", "c", "d"]) {
        writeFileSync(
          join(dir.path, `${name}.spec.ts`),
          `import { appendFileSync } from "node:fs";\nimport { test } from "node:test";\n` +
            `test("${name} runs", () => appendFileSync(${JSON.stringify(pids)}, "${name} " + process.pid + "\\n"));\n`,
        );
      }
      writeFileSync(join(dir.path, "broken.spec.ts"), `throw new Error("broken on purpose");\n`);
      const tmp = join(dir.path, "tmp");
      mkdirSync(tmp);

      // TAP by name: from Node 23 on, the default reporter is spec even when the output is a pipe.
      const { code, stdout, pid } = await runSpecs([dir.path, "--test-reporter=tap"], tmp);

      assert.equal(code, 1, stdout);
      assert.match(stdout, /^not ok \d+ - .*broken\.spec\.ts$/m);
      assert.match(stdout, /broken on purpose/);
      for (const name of ["a", "b", "c", "d"]) assert.match(stdout, new RegExp(`^ok \\d+ - ${name} runs$`, "m"));
      assert.match(stdout, /^# pass 4$/m);
      assert.match(stdout, /^# fail 1$/m);
      const ran = readFileSync(pids, "utf8").trim().split("\n");
      assert.deepEqual(
        ran,
        ["a", "b", "c", "d"].map((name) => `${name} ${pid}`),
        "in file order, in flowcheck test's own process",
      );
      const results = JSON.parse(readFileSync(join(tmp, "test", ".tmp", "run-results.json"), "utf8")) as {
        specsNotLoaded: { file: string; message: string }[];
      };
      assert.deepEqual(results.specsNotLoaded, [
        { file: join(dir.path, "broken.spec.ts"), message: "broken on purpose" },
      ]);
    } finally {
      dir.remove();
    }
  });

  test("a TypeScript module given to --import loads ahead of the specs", async () => {
    const dir = await tempDir("test-command-import");
    try {
      writeFileSync(
        join(dir.path, "setup.ts"),
        `const ran: boolean = true;\n(globalThis as { setupRan?: boolean }).setupRan = ran;\n`,
      );
      writeFileSync(
        join(dir.path, "setup.spec.ts"),
        `import assert from "node:assert/strict";\nimport { test } from "node:test";\ntest("the setup ran first", () => assert.equal((globalThis as { setupRan?: boolean }).setupRan, true));\n`,
      );
      const tmp = join(dir.path, "tmp");
      mkdirSync(tmp);

      const setup = pathToFileURL(join(dir.path, "setup.ts")).href;
      const { code, stdout } = await runSpecs(
        [join(dir.path, "setup.spec.ts"), "--import", setup, "--test-reporter=tap"],
        tmp,
      );

      assert.equal(code, 0, stdout);
      assert.match(stdout, /^ok \d+ - the setup ran first$/m);
    } finally {
      dir.remove();
    }
  });

  test("node:test's name filter and reporters work as under node --test: a test left out is never reported as passed", async () => {
    const dir = await tempDir("test-command-one");
    try {
      writeFileSync(
        join(dir.path, "one.spec.ts"),
        `import { test } from "node:test";\n` +
          `test("runs", () => {});\n` +
          `test("fails on purpose", () => { throw new Error("failed on purpose"); });\n` +
          `test("not selected", () => {});\n`,
      );
      const tmp = join(dir.path, "tmp");
      mkdirSync(tmp);
      const junit = join(tmp, "out", "node-junit.xml");

      const { code, stdout } = await runSpecs(
        [
          join(dir.path, "one.spec.ts"),
          "--test-name-pattern",
          "runs|purpose",
          "--test-reporter=tap",
          "--test-reporter-destination=stdout",
          "--test-reporter=junit",
          `--test-reporter-destination=${junit}`,
        ],
        tmp,
      );

      assert.equal(code, 1, stdout);
      assert.match(stdout, /^ok \d+ - runs$/m);
      assert.match(stdout, /^not ok \d+ - fails on purpose$/m);
      assert.doesNotMatch(stdout, /^ok \d+ - not selected$/m);
      assert.match(stdout, /^# pass 1$/m);
      assert.match(stdout, /^# fail 1$/m);
      assert.match(
        readFileSync(junit, "utf8"),
        /<testcase name="fails on purpose"/,
        "the second reporter wrote its own file, its folder made",
      );
    } finally {
      dir.remove();
    }
  });

  test("a command line flowcheck test cannot take stops it before any test, saying what was wrong", async () => {
    const dir = await tempDir("test-command-arguments");
    try {
      for (const [args, message] of [
        [["--repeat", "two"], /--repeat takes a whole number of runs, got two\./],
        [
          ["--test-shard=3/2"],
          /--test-shard takes i\/n, shard i of n \(1 ≤ i ≤ n\), e\.g\. --test-shard=2\/4; got 3\/2\./,
        ],
        [["--no-such-option"], /Unknown option '--no-such-option'/],
        [
          ["--test-reporter=tap", "--test-reporter-destination=a.xml", "--test-reporter-destination=b.xml"],
          /--test-reporter-destination is given 2 times for 1 --test-reporter/,
        ],
      ] as const) {
        const run = await runFlowcheck(["test", "test", ...args], {}, undefined, dir.path);
        assert.equal(run.code, 2, run.stdout + run.stderr);
        assert.match(run.stderr, message);
        assert.match(run.stderr, /^flowcheck test: .* See flowcheck test --help\.$/m);
        assert.equal(run.stdout, "");
      }
    } finally {
      dir.remove();
    }
  });

  test("a green run closes with six lines: its totals, a line per flow with what its scenarios reached, and where its results and report are", async () => {
    const dir = await tempDir("test-command-summary");
    try {
      const from = (path: string) => JSON.stringify(join(ROOT, path));
      const flows = [
        {
          flow: "RelayFlow",
          module: "relay-flow",
          turns: [
            { label: "greets", input: "hello", expectedActiveStep: "FarewellStep" },
            { label: "ends", input: "bye", expectedActiveStep: "FarewellStep", completed: true },
          ],
        },
        {
          flow: "TallyFlow",
          module: "tally-flow",
          turns: [{ label: "counts", input: "one", expectedActiveStep: "TallyStep" }],
        },
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
        const run = await runFlowcheck(
          ["test", ...args, "relay-flow.spec.ts", "tally-flow.spec.ts"],
          {},
          undefined,
          dir.path,
        );
        assert.equal(run.code, 0, run.stdout + run.stderr);
        const lines = run.stdout.trimEnd().split("\n");
        const closing = lines.slice(lines.findLastIndex((line) => /^\d+ conversations?: /.test(line)));
        assert.deepEqual(closing, summary, run.stdout);
      }
    } finally {
      dir.remove();
    }
  });
});
