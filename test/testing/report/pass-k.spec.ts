import assert from "node:assert/strict";
import { test } from "node:test";
import { FlowcheckError } from "../../../src/errors.ts";
import { passK, simulatedSummary } from "../../../src/testing/report/pass-k.ts";
import { sampleConversation, sampleSimulated, sampleTurn } from "../../support/sample-run-results.ts";

test("pass^k is C(c,k)/C(n,k): 3 successes of 5 tries give 0.6, 0.3, 0.1, 0, 0", () => {
  assert.deepEqual(passK(3, 5), [0.6, 0.3, 0.1, 0, 0]);
});

test("every try a success gives pass^k 1 for every k, none gives 0, one try gives one value", () => {
  assert.deepEqual(passK(4, 4), [1, 1, 1, 1]);
  assert.deepEqual(passK(0, 3), [0, 0, 0]);
  assert.deepEqual(passK(1, 1), [1]);
  assert.deepEqual(passK(0, 1), [0]);
  assert.deepEqual(passK(0, 0), []);
});

test("pass^k of many tries stays finite and exact where factorials would overflow", () => {
  const values = passK(999, 1000);
  assert.equal(values.length, 1000);
  assert.equal(values[0], 0.999);
  assert.equal(values[998], 0.001);
  assert.equal(values[999], 0);
  assert.ok(values.every(Number.isFinite));
});

test("counts that are not whole, negative, or more successes than tries are refused", () => {
  for (const [successes, tries] of [
    [4, 3],
    [-1, 3],
    [1, -1],
    [1.5, 3],
    [1, 2.5],
    [Number.NaN, 2],
  ] as const)
    assert.throws(
      () => passK(successes, tries),
      (error: unknown) => error instanceof FlowcheckError && error.code === "pass_k_invalid",
      `${successes} of ${tries}`,
    );
});

test("a simulated scenario's repeats make one entry: tries those that ran, successes those that passed, flaky when some but not all passed", () => {
  const summary = simulatedSummary([
    sampleSimulated("booking", { index: 1, of: 3 }, "passed"),
    sampleSimulated("booking", { index: 2, of: 3 }, "failed"),
    sampleSimulated("booking", { index: 3, of: 3 }, "passed", { ran: false, outcome: "skipped" }),
    sampleSimulated("steady", { index: 1, of: 2 }, "passed"),
    sampleSimulated("steady", { index: 2, of: 2 }, "passed"),
    sampleConversation("scripted", [sampleTurn(1)]),
  ]);
  assert.deepEqual(summary, {
    scenarios: [
      {
        file: "journeys/booking.scenario.json",
        name: "booking",
        flowName: "BasicFlow",
        tries: 2,
        successes: 1,
        passK: [0.5, 0],
        flaky: true,
      },
      {
        file: "journeys/steady.scenario.json",
        name: "steady",
        flowName: "BasicFlow",
        tries: 2,
        successes: 2,
        passK: [1, 1],
        flaky: false,
      },
    ],
    passK: [0.75, 0.5],
  });
});

test("the run's pass^k at k averages only the scenarios tried at least k times", () => {
  const summary = simulatedSummary([
    sampleSimulated("once", { index: 1, of: 1 }, "failed"),
    ...[1, 2, 3].map((index) => sampleSimulated("thrice", { index, of: 3 }, "passed")),
  ]);
  assert.deepEqual(summary?.passK, [0.5, 1, 1]);
});

test("a run with no simulated conversation has no simulated summary", () => {
  assert.equal(simulatedSummary([sampleConversation("scripted", [sampleTurn(1)])]), undefined);
  assert.equal(simulatedSummary([]), undefined);
});
