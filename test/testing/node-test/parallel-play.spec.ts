import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import type { Scenario } from "../../../src/testing/index.ts";
import { writeFlowSpec } from "../../support/scenario-spec.ts";
import { tempDir } from "../../support/temp-path.ts";
import { readBasicFlow, runSpec } from "../../support/child-run.ts";

// Conversations played ahead of their tests, several at once (FLOW_CONCURRENCY): node:test still
// reports each suite's tests together, in declaration order, with the skips after a failure.

const TESTS = [
  "the target starts, serves the flow, and the persisted contract can be checked",
  "1. name rejected",
  "1. name rejected · judge",
  "2. name accepted",
  "2. name accepted · judge",
  "3. two cities",
  "3. two cities · judge",
  "4. bad zip stays",
  "4. bad zip stays · judge",
  "5. address completes the flow",
  "5. address completes the flow · judge",
  "6. completed session refuses more",
  "final state",
];

function writeSuite(dir: string, scenarios: Record<string, Scenario>): string {
  const folder = join(dir, "scenario-files");
  mkdirSync(folder);
  for (const [name, scenario] of Object.entries(scenarios)) {
    const copy = { ...scenario };
    delete copy.$schema;
    writeFileSync(join(folder, `${name}.scenario.json`), JSON.stringify(copy));
  }
  return writeFlowSpec(dir, "parallel", folder);
}

test("with FLOW_CONCURRENCY=3 each scenario's tests are reported together and in order, and a failed turn's successors are skipped saying which failed", async (t) => {
  const dir = await tempDir("parallel-play");
  t.after(dir.remove);
  const failing = readBasicFlow();
  failing.turns[1] = { ...failing.turns[1]!, expectedActiveStep: "AddressStep" };
  const spec = writeSuite(dir.path, { one: readBasicFlow(), two: failing, three: readBasicFlow() });
  const run = await runSpec(spec, { FLOW_CONCURRENCY: "3", JUDGE: "off" }, t.signal);
  assert.equal(run.code, 1, run.stdout + run.stderr);
  // TAP announces each test as it reports it: suites one after another, each test in its place.
  const announced = [...run.stdout.matchAll(/^\s*# Subtest: (.+)$/gm)].map((match) => match[1]!);
  assert.deepEqual(announced, ["BasicFlow: one", ...TESTS, "BasicFlow: three", ...TESTS, "BasicFlow: two", ...TESTS]);
  const results = [...run.stdout.matchAll(/^ {4}(not ok|ok) \d+ - (.+?)(?: # (SKIP.*))?$/gm)].map(
    (match) => `${match[1]} ${match[2]}${match[3] ? ` # ${match[3]}` : ""}`,
  );
  const off = "SKIP JUDGE=off, so expectedResponse is not graded";
  const two = results.slice(2 * TESTS.length);
  assert.deepEqual(two.slice(0, 5), [
    `ok ${TESTS[0]}`,
    `ok ${TESTS[1]}`,
    `ok ${TESTS[2]} # ${off}`,
    `not ok ${TESTS[3]}`,
    `ok ${TESTS[4]} # SKIP turn 2 failed its contracts`,
  ]);
  assert.deepEqual(
    two.slice(5),
    TESTS.slice(5).map((name) => `ok ${name} # SKIP turn 2 failed`),
  );
  assert.ok(
    results.slice(0, 2 * TESTS.length).every((line) => line.startsWith("ok ")),
    results.join("\n"),
  );
});
