import assert from "node:assert/strict";
import { test } from "node:test";
import { totalsOf } from "../../../src/testing/report/merge-run-results.ts";
import { simulatedSummary } from "../../../src/testing/report/pass-k.ts";
import { renderSummary } from "../../../src/testing/report/render-summary.ts";
import { RESULTS_VERSION, type ConversationResult, type TurnResult } from "../../../src/testing/report/run-results.ts";
import { sampleRunResults, sampleSimulated } from "../../support/sample-run-results.ts";

function judgedTurn(outcome: "passed" | "failed", score: number): TurnResult {
  return {
    number: 1,
    label: "greets",
    input: "hi",
    outcome: "passed",
    checks: [],
    judge: { outcome, score, minScore: 0.75 },
    location: "s.scenario.json:7",
  };
}

/** Run `index` of 3 of one scenario, its turn graded `score`, its tokens `tokens`. */
function repeatOf(index: number, turn: TurnResult, tokens: number): ConversationResult {
  return {
    id: `s.scenario.json#s@${index}`,
    file: "s.scenario.json",
    name: "s",
    flowName: "Flow",
    repeat: { index, of: 3 },
    outcome: turn.judge?.outcome === "failed" ? "failed" : "passed",
    ran: true,
    ...(turn.judge?.outcome === "failed"
      ? { reason: "turn 1 'greets': score 0.40 | below 0.75", kind: "semantic" as const }
      : {}),
    pins: {},
    models: {},
    tokens: { model: { input: tokens, output: 1 }, judge: { input: 0, output: 0 } },
    turns: [turn, { number: 2, label: "ends", input: "bye", outcome: index === 3 ? "skipped" : "passed", checks: [] }],
  };
}

test("the job summary gives each turn's pass rate over every run of it (a judge failure counts against it), its judge score spread, tokens per scenario and the failures on their lines", () => {
  const conversations = [
    repeatOf(1, judgedTurn("passed", 0.9), 10),
    repeatOf(2, judgedTurn("failed", 0.4), 20),
    repeatOf(3, judgedTurn("passed", 0.8), 30),
  ];
  const summary = renderSummary({
    results: RESULTS_VERSION,
    startedAt: "2025-01-01T00:00:00.000Z",
    endedAt: "2025-01-01T00:01:00.000Z",
    shards: ["1/2", "2/2"],
    pins: {},
    models: {},
    totals: totalsOf(conversations),
    conversations,
    specsNotLoaded: [],
  });
  const lines = summary.split("\n");
  assert.equal(lines[0], "## flowcheck: 1 of 3 conversations failed");
  assert.match(
    summary,
    /^Turns 5 passed, 0 failed, 1 skipped · judge 67% of 3 passed · tokens 63 \(model 60 in, 3 out; judge 0 in, 0 out\)$/m,
  );
  assert.match(summary, /^Shards 1\/2, 2\/2 · 2025-01-01T00:00:00\.000Z to 2025-01-01T00:01:00\.000Z$/m);
  assert.ok(lines.includes("| Flow: s | 1. greets | 2 of 3 (67%) | 0.40 / 0.80 / 0.90 |"), summary);
  assert.ok(lines.includes("| Flow: s | 2. ends | 2 of 2 (100%) | – |"), summary);
  assert.ok(lines.includes("| Flow: s | 63 |"), summary);
  assert.ok(
    lines.includes("- `s.scenario.json#s@2` (s.scenario.json:7): turn 1 'greets': score 0.40 \\| below 0.75"),
    summary,
  );
});

test("the job summary of a run with simulated users counts their tokens apart and lists each simulated scenario's successes and pass^k, and the run's", () => {
  const conversations = (["passed", "failed", "passed"] as const).map((outcome, index) =>
    sampleSimulated("booking", { index: index + 1, of: 3 }, outcome),
  );
  const text = renderSummary(sampleRunResults(conversations, { simulated: simulatedSummary(conversations)! }));
  assert.match(text, /· tokens 75 \(model 30 in, 15 out; judge 0 in, 0 out; simulated users 21 in, 9 out\)\n/);
  assert.match(text, /\| BasicFlow: booking \| 75 \|/);
  assert.match(
    text,
    /\| simulated scenario \| succeeded \| pass\^k \|\n\| --- \| --- \| --- \|\n\| booking \| 2\/3 succeeded · flaky \| pass\^1 66\.7%, pass\^2 33\.3%, pass\^3 0% \|\n\| run \| \| pass\^1 66\.7%, pass\^2 33\.3%, pass\^3 0% \|\n/,
  );
});
