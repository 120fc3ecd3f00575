import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, test, type TestContext } from "node:test";
import type { RunResults } from "../../src/testing/report/run-results.ts";
import { ROOT, runFlowcheck, type ChildRun } from "../support/child-run.ts";
import { tempDir } from "../support/temp-path.ts";

// A project that builds on flowcheck's engine and has no flow spec: flowcheck.config.json names its
// flows module, and flowcheck test plays the scenario files of those flows in process.
const BASIC_FLOW_ENTRY = resolve(import.meta.dirname, "..", "fixtures", "flows", "basic", "basic-flow-entry.ts");

const turns = [
  { label: "name accepted", input: "John Wick", expectedActiveStep: "WeatherStep" },
  { label: "two cities", input: "LA, NYC", expectedActiveStep: "AddressStep" },
];

/** A project in a temp folder, removed after the test: its config naming `flows`, one scenario of BasicFlow with `scenarioTurns`, and `files`. */
async function project(
  t: TestContext,
  flows: string,
  scenarioTurns: readonly unknown[] = turns,
  files: Record<string, string> = {},
): Promise<string> {
  const dir = await tempDir("run-project-flows");
  t.after(dir.remove);
  mkdirSync(join(dir.path, "scenarios"));
  mkdirSync(join(dir.path, "flows"));
  writeFileSync(
    join(dir.path, "flows", "registered-flows.ts"),
    `import { basicFlowEntry } from ${JSON.stringify(BASIC_FLOW_ENTRY)};\nexport const registeredFlows = [basicFlowEntry];\n`,
  );
  writeFileSync(join(dir.path, "flowcheck.config.json"), JSON.stringify({ flows }));
  writeFileSync(
    join(dir.path, "scenarios", "wick.scenario.json"),
    JSON.stringify({ flowName: "BasicFlow", turns: scenarioTurns }),
  );
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir.path, name, ".."), { recursive: true });
    writeFileSync(join(dir.path, name), text);
  }
  return dir.path;
}

function runSpecs(cwd: string): Promise<ChildRun> {
  return runFlowcheck(["test", "scenarios"], {}, undefined, cwd);
}

function resultsOf(cwd: string): RunResults {
  return JSON.parse(readFileSync(join(cwd, "test", ".tmp", "run-results.json"), "utf8")) as RunResults;
}

describe("flowcheck test plays the scenarios of the flows flowcheck.config.json names, with no spec", {
  concurrency: 4,
}, () => {
  test("a scenario of a project flow is played in process on its scripted model, into the results and the checklist", async (t) => {
    const cwd = await project(t, "./flows/registered-flows.ts");
    const run = await runSpecs(cwd);
    const output = run.stdout + run.stderr;
    assert.equal(run.code, 0, output);
    const [conversation, ...others] = resultsOf(cwd).conversations;
    assert.equal(others.length, 0, output);
    assert.equal(conversation?.name, "wick");
    assert.equal(conversation?.outcome, "passed", conversation?.reason);
    assert.deepEqual(
      conversation?.turns.map((turn) => [turn.outcome, turn.stored?.step]),
      [
        ["passed", "WeatherStep"],
        ["passed", "AddressStep"],
      ],
    );
    assert.match(run.stdout, /BasicFlow: wick/);
    assert.match(
      run.stdout,
      /^  BasicFlow +3\/3 steps · \d\/3 tools · checklist /m,
      "the project's flow has its checklist",
    );
  });

  test("a failing expectation fails the run, naming the turn", async (t) => {
    const wrong = [{ ...turns[0], expectedActiveStep: "AddressStep" }];
    const cwd = await project(t, join("flows", "registered-flows.ts"), wrong);
    const run = await runSpecs(cwd);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const [conversation] = resultsOf(cwd).conversations;
    assert.equal(conversation?.outcome, "failed");
    assert.match(run.stdout, /turn 1 'name accepted': expected active step AddressStep, stored WeatherStep/);
  });

  test("a spec that describes the flow still plays its scenarios, and the runner's module does not", async (t) => {
    const spec =
      `import { describeFlowScenarios } from ${JSON.stringify(join(ROOT, "src", "testing", "index.ts"))};\n` +
      `import { registeredFlows } from "../../flows/registered-flows.ts";\n` +
      `describeFlowScenarios("BasicFlow", { flows: registeredFlows, everyScenario: { domain: () => { throw new Error("the spec's own check ran"); } } });\n`;
    const cwd = await project(t, "./flows/registered-flows.ts", turns, { "test/flows/basic-flow.spec.ts": spec });
    const run = await runSpecs(cwd);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stdout, /the spec's own check ran/);
    assert.equal(resultsOf(cwd).conversations.length, 1, "played once, by the spec");
  });

  test("a scenario file that is not JSON, with no spec to report it, is one failing test saying so", async (t) => {
    const cwd = await project(t, "./flows/registered-flows.ts", turns, {
      "scenarios/wick.scenario.json": '{ "flowName": "BasicFlow", "turns": [',
    });
    const run = await runSpecs(cwd);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stdout, /scenarios\/wick\.scenario\.json is not a valid scenario \(1 problem\); no turn was run/);
    assert.match(run.stdout, /the file is not valid JSON/);
  });

  test("a config naming a flows module that does not exist stops the run before anything plays", async (t) => {
    const cwd = await project(t, "./src/flows/index.ts");
    const run = await runSpecs(cwd);
    assert.equal(run.code, 2, run.stdout + run.stderr);
    assert.equal(run.stdout, "");
    assert.match(
      run.stderr,
      /^flowcheck test: stopped before playing anything: flows_module_missing: flowcheck\.config\.json names "flows": "\.\/src\/flows\/index\.ts", but there is no /,
    );
    assert.equal(existsSync(join(cwd, "test", ".tmp", "run-results.json")), false);
  });
});
