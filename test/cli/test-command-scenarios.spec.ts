import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test, type TestContext } from "node:test";
import { NOT_PLAYED } from "../../src/testing/report/conversation-result.ts";
import type { RunResults } from "../../src/testing/report/run-results.ts";
import { tempDir } from "../support/temp-path.ts";
import { ROOT, tapResults, type ChildRun, runFlowcheck } from "../support/child-run.ts";

// flowcheck test given scenario files or folders runs just those scenarios through the specs that
// describe their flows: here a spec of the test's own, on RelayFlow (test/support/relay-flow.ts).

let dir: { path: string; remove(): void };
let specs: string;
/** The same spec, its artifacts left where the run records them: the run's results then hold its conversations. */
let recordedSpecs: string;
let scenarios: string;

const turns = [
  { label: "greets", input: "hello", expectedActiveStep: "FarewellStep" },
  { label: "ends", input: "bye", expectedActiveStep: "FarewellStep", completed: true },
];

/**
 * flowcheck test in a folder of its own, removed after the test, so its test/.tmp/run-results.json (and
 * the suite's artifacts) are written there, not over the project's or another test's.
 */
async function runSpecs(t: TestContext, ...args: string[]): Promise<ChildRun> {
  const cwd = await tempDir("test-command-scenarios-cwd");
  t.after(cwd.remove);
  return runFlowcheck(["test", ...args], {}, undefined, cwd.path);
}

before(async () => {
  dir = await tempDir("test-command-scenarios");
  specs = join(dir.path, "specs");
  scenarios = join(dir.path, "our-scenarios");
  mkdirSync(join(scenarios, "team"), { recursive: true });
  mkdirSync(specs);
  writeFileSync(join(scenarios, "first.scenario.json"), JSON.stringify({ flowName: "RelayFlow", turns }));
  writeFileSync(join(scenarios, "team", "second.scenario.json"), JSON.stringify({ flowName: "RelayFlow", turns }));
  writeFileSync(join(scenarios, "team", "other.scenario.json"), JSON.stringify({ flowName: "NoSpecFlow", turns }));
  const from = (path: string) => JSON.stringify(join(ROOT, path));
  writeFileSync(
    join(specs, "relay-flow.spec.ts"),
    `import { describeFlowScenarios } from ${from("src/testing/index.ts")};\nimport { relayFlows } from ${from("test/support/relay-flow.ts")};\n` +
      `describeFlowScenarios("RelayFlow", { flows: relayFlows, dir: ${JSON.stringify(scenarios)}, artifactsDir: "artifacts" });\n`,
  );
  recordedSpecs = join(dir.path, "recorded-specs");
  mkdirSync(recordedSpecs);
  writeFileSync(
    join(recordedSpecs, "relay-flow.spec.ts"),
    `import { describeFlowScenarios } from ${from("src/testing/index.ts")};\nimport { relayFlows } from ${from("test/support/relay-flow.ts")};\n` +
      `describeFlowScenarios("RelayFlow", { flows: relayFlows, dir: ${JSON.stringify(scenarios)} });\n`,
  );
  writeFileSync(join(specs, "unit.spec.ts"), `import { test } from "node:test";\ntest("a unit spec", () => {});\n`);
});

after(() => dir.remove());

// The specs and scenarios are only read; each flowcheck test child has a folder of its own, so the tests run side by side.
describe("flowcheck test given scenario files or folders", { concurrency: 3 }, () => {
  test("a scenario file given runs that file's scenarios alone, through the spec of its flow and no other spec", async (t) => {
    const child = await runSpecs(t, specs, join(scenarios, "first.scenario.json"), "--test-reporter=tap");
    assert.equal(child.code, 0, child.stdout + child.stderr);
    const suites = [...tapResults(child.stdout).keys()].filter((name) => name.startsWith("RelayFlow: "));
    assert.deepEqual(suites, ["RelayFlow: first"]);
    assert.doesNotMatch(child.stdout, /a unit spec/);
  });

  test("node:test options may come before the paths, their values not taken for paths", async (t) => {
    const child = await runSpecs(
      t,
      "--test-reporter",
      "tap",
      "--test-name-pattern",
      "greets",
      specs,
      join(scenarios, "team", "second.scenario.json"),
    );
    assert.equal(child.code, 0, child.stdout + child.stderr);
    const results = tapResults(child.stdout);
    assert.equal(results.get("1. greets")?.ok, true);
    assert.equal(results.has("RelayFlow: first"), false);
  });

  test("a scenario whose flow no spec given runs stops the run before any test, naming the file and the spec to add", async (t) => {
    const child = await runSpecs(t, specs, join(scenarios, "team"));
    assert.equal(child.code, 1);
    assert.match(
      child.stderr,
      /other\.scenario\.json has "flowName": "NoSpecFlow", but no spec given runs NoSpecFlow's scenarios \(they run RelayFlow\)\. Fix the flowName, or add test\/flows\/no-spec-flow\.spec\.ts/,
    );
    assert.equal(child.stdout, "");
  });

  test("--repeat N plays each scenario N times, its suite named for the repeats; a repeat that is not a whole number is refused", async (t) => {
    const child = await runSpecs(
      t,
      specs,
      join(scenarios, "first.scenario.json"),
      "--repeat",
      "2",
      "--test-reporter=tap",
    );
    assert.equal(child.code, 0, child.stdout + child.stderr);
    assert.equal(tapResults(child.stdout).get("RelayFlow: first × 2")?.ok, true, child.stdout);
    assert.match(child.stdout, /# turn 1 'greets': passed 2 of 2 runs \(100%\)/);
    const refused = await runSpecs(t, specs, "--repeat=twice");
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /--repeat takes a whole number of runs, got twice\./);
  });

  test("with --repeat 2 a name pattern that selects the first turn plays it in both runs, and neither plays past the last selected test", async (t) => {
    const cwd = await tempDir("test-command-scenarios-cwd");
    t.after(cwd.remove);
    const child = await runFlowcheck(
      [
        "test",
        recordedSpecs,
        join(scenarios, "first.scenario.json"),
        "--repeat",
        "2",
        "--test-name-pattern",
        "^1\\. greets$",
      ],
      {},
      undefined,
      cwd.path,
    );
    assert.equal(child.code, 0, child.stdout + child.stderr);
    const results = JSON.parse(readFileSync(join(cwd.path, "test", ".tmp", "run-results.json"), "utf8")) as RunResults;
    const runs = results.conversations.filter((each) => each.name === "first");
    assert.equal(runs.length, 2);
    for (const run of runs) {
      const [greets, ends] = run.turns;
      assert.equal(greets?.outcome, "passed");
      assert.deepEqual([ends?.outcome, ends?.skipReason], ["skipped", NOT_PLAYED]);
    }
  });

  test("a folder with no scenario in it stops the run, saying so, instead of running nothing green", async (t) => {
    const empty = join(dir.path, "empty");
    mkdirSync(empty);
    const child = await runSpecs(t, specs, empty);
    assert.equal(child.code, 1);
    assert.match(child.stderr, /no \*\.scenario\.json under .*empty; nothing to run\./);
  });

  test("a path that does not exist is refused, naming it", async (t) => {
    const child = await runSpecs(t, specs, join(scenarios, "absent.scenario.json"));
    assert.equal(child.code, 2);
    assert.match(child.stderr, /absent\.scenario\.json: no such file or folder/);
  });
});
