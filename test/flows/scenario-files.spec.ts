import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { test } from "node:test";
import { registeredFlows } from "../../src/flows/index.ts";
import { discoverScenarios } from "../../src/testing/index.ts";
import { flowSpecName } from "../../src/testing/node-test/flow-spec-name.ts";

// The flow specs run the scenarios of their flows and report broken files; this makes sure every
// registered flow's scenarios have a spec to run them, and that editors can check every file.
const { files } = discoverScenarios("scenarios");
const registered = new Set(registeredFlows.map((entry) => entry.flow.name));

for (const file of files) {
  test(`${file} names its schema, and its flow has a spec that runs it`, (t) => {
    let scenario: { $schema?: unknown; flowName?: unknown };
    try {
      scenario = JSON.parse(readFileSync(file, "utf8")) as typeof scenario;
    } catch {
      t.skip("the file is not JSON; its flow's spec reports it");
      return;
    }
    const schema = relative(dirname(file), "scenarios/scenario.schema.json");
    const expected = schema.startsWith(".") ? schema : `./${schema}`;
    assert.ok(
      typeof scenario.$schema === "string" &&
        resolve(dirname(file), scenario.$schema) === resolve("scenarios/scenario.schema.json"),
      `${file}: set "$schema": "${expected}" so editors check it`,
    );
    if (typeof scenario.flowName !== "string" || !registered.has(scenario.flowName)) return;
    // flowcheck test finds a flow's spec by its name alone: InvoiceFlow's is test/flows/invoice-flow.spec.ts.
    const spec = flowSpecName(scenario.flowName);
    assert.ok(
      existsSync(join(import.meta.dirname, spec)),
      `${file} is for ${scenario.flowName}, but there is no test/flows/${spec} to run it`,
    );
  });
}
