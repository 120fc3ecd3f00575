import assert from "node:assert/strict";
import { test } from "node:test";
import { mergeRunResults } from "../../../src/testing/report/merge-run-results.ts";
import { simulatedSummary } from "../../../src/testing/report/pass-k.ts";
import { sampleRunResults, sampleSimulated } from "../../support/sample-run-results.ts";

function shard(label: string, tries: [number, "passed" | "failed"][]) {
  const conversations = tries.map(([index, outcome]) => sampleSimulated("booking", { index, of: 5 }, outcome));
  const simulated = simulatedSummary(conversations)!;
  return { file: `${label}.json`, results: sampleRunResults(conversations, { shards: [label], simulated }) };
}

test("two shards holding some repeats each of a simulated scenario merge into its c of n, pass^k recomputed, not added", () => {
  const a = shard("1/2", [
    [1, "passed"],
    [2, "failed"],
  ]);
  const b = shard("2/2", [
    [3, "passed"],
    [4, "passed"],
    [5, "failed"],
  ]);
  assert.deepEqual(a.results.simulated?.passK, [0.5, 0]);
  const merged = mergeRunResults([a, b]);
  assert.deepEqual(merged.simulated, {
    scenarios: [
      {
        file: "journeys/booking.scenario.json",
        name: "booking",
        flowName: "BasicFlow",
        tries: 5,
        successes: 3,
        passK: [0.6, 0.3, 0.1, 0, 0],
        flaky: true,
      },
    ],
    passK: [0.6, 0.3, 0.1, 0, 0],
  });
  assert.deepEqual(merged.totals.tokens, {
    model: { input: 50, output: 25 },
    judge: { input: 0, output: 0 },
    user: { input: 35, output: 15 },
    total: 125,
  });
});
