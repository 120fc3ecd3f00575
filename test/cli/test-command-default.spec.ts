import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { ROOT, tapResults, runFlowcheck } from "../support/child-run.ts";
import { tempDir } from "../support/temp-path.ts";

// `flowcheck test` with no path, in a project folder of the test's own: there scenarios/ is that
// project's, written by the test, with a spec of its own on RelayFlow (test/support/relay-flow.ts).

const turns = [
  { label: "greets", input: "hello", expectedActiveStep: "FarewellStep" },
  { label: "ends", input: "bye", expectedActiveStep: "FarewellStep", completed: true },
];

test("without a path flowcheck test runs the project's scenarios/ through the specs under test/ that describe them, and without scenarios/ says there is nothing to run", async (t) => {
  const project = await tempDir("test-command-default");
  t.after(project.remove);
  const run = () => runFlowcheck(["test", "--test-reporter=tap"], {}, undefined, project.path);
  const nothing = await run();
  assert.deepEqual(nothing, {
    code: 1,
    stdout: "",
    stderr: "flowcheck test: no path given and no scenarios/ folder here; nothing to run.\n",
  });
  mkdirSync(join(project.path, "scenarios"));
  mkdirSync(join(project.path, "test"));
  writeFileSync(join(project.path, "scenarios", "own.scenario.json"), JSON.stringify({ flowName: "RelayFlow", turns }));
  const from = (path: string) => JSON.stringify(join(ROOT, path));
  writeFileSync(
    join(project.path, "test", "relay-flow.spec.ts"),
    `import { describeFlowScenarios } from ${from("src/testing/index.ts")};\nimport { relayFlows } from ${from("test/support/relay-flow.ts")};\n` +
      `describeFlowScenarios("RelayFlow", { flows: relayFlows });\n`,
  );
  writeFileSync(
    join(project.path, "test", "unit.spec.ts"),
    `import { test } from "node:test";\ntest("a unit spec", () => {});\n`,
  );
  const child = await run();
  assert.equal(child.code, 0, child.stdout + child.stderr);
  assert.deepEqual(
    [...tapResults(child.stdout).keys()].filter((name) => name.startsWith("RelayFlow: ")),
    ["RelayFlow: own"],
  );
  assert.doesNotMatch(child.stdout, /a unit spec/);
});
