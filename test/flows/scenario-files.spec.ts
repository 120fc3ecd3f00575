import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { test } from "node:test";
import { demoFlows } from "../../src/flows/index.ts";
import { kebabCase, loadScenario, scenarioFiles } from "../../src/testing/index.ts";

// Flow specs pick their scenarios by flowName; this keeps a file from being run by none of them.
const files = scenarioFiles("scenarios");

test("there are scenario files", () => {
  assert.ok(files.length > 0, "scenarios/ has no *.scenario.json");
});

for (const file of files) {
  test(`${file} is valid, names its schema, and its flow has a spec that runs it`, () => {
    const { scenario } = loadScenario(file, demoFlows.map((entry) => entry.flow));
    assert.equal(scenario.$schema, "./scenario.schema.json", `${file}: set "$schema": "./scenario.schema.json" so editors check it`);
    const spec = `test/flows/${kebabCase(scenario.flowName)}.spec.ts`;
    assert.ok(existsSync(spec), `${file} is for ${scenario.flowName}, but ${spec} does not exist to run it`);
  });
}
