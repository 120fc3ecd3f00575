import assert from "node:assert/strict";
import { test } from "node:test";
import { mergeRunResults } from "../../../src/testing/report/merge-run-results.ts";
import { renderRunSummary } from "../../../src/testing/report/render-run-summary.ts";
import { renderSummary } from "../../../src/testing/report/render-summary.ts";
import type { TurnResult } from "../../../src/testing/report/run-results.ts";
import { sampleConversation, sampleRunResults, sampleTurn } from "../../support/sample-run-results.ts";

// A run's unstable verdicts (JUDGE_SAMPLES above 1) as its results, the closing summary and the
// Markdown job summary give them, over shards merged as over one run.

function judged(number: number, scores: number[], location?: string): TurnResult {
  const samples = scores.map((score) => ({ pass: true, score, reason: `scored ${score}` }));
  const passes = scores.filter((score) => score >= 0.75).length;
  const unstable = passes !== 0 && passes !== scores.length;
  const sorted = [...scores].sort((a, b) => a - b);
  return sampleTurn(number, {
    ...(location ? { location } : {}),
    judge: {
      outcome: passes * 2 > scores.length ? "passed" : "failed",
      score: sorted[Math.floor(sorted.length / 2)]!,
      minScore: 0.75,
      samples,
      unstable,
    },
  });
}

const shardOne = sampleRunResults([
  sampleConversation("greeting", [
    judged(1, [0.9, 0.4, 0.8], "journeys/greeting.scenario.json:7"),
    judged(2, [0.9, 0.9, 0.8]),
  ]),
]);
const shardTwo = sampleRunResults([
  sampleConversation("weather", [judged(1, [0.2, 0.9, 0.3], "journeys/weather.scenario.json:9")]),
]);

test("merged shards count their unstable verdicts again from the turns, as one run would", () => {
  assert.equal(shardOne.totals.judge.unstable, 1);
  const merged = mergeRunResults([
    { file: "one.json", results: shardOne },
    { file: "two.json", results: shardTwo },
  ]);
  assert.equal(merged.totals.judge.unstable, 2);
  assert.equal(merged.totals.judge.graded, 3);
});

test("the closing summary counts the unstable verdicts and names each turn's file:line, samples and outcome", () => {
  const merged = mergeRunResults([
    { file: "one.json", results: shardOne },
    { file: "two.json", results: shardTwo },
  ]);
  const lines = renderRunSummary(merged, { files: { results: "r.json", report: "r.html" } });
  const at = lines.findIndex((line) => line.startsWith("judge: 2 unstable verdicts"));
  assert.notEqual(at, -1, lines.join("\n"));
  assert.deepEqual(lines.slice(at + 1, at + 3), [
    "  journeys/greeting.scenario.json:7 turn 1 'turn 1': 2 of 3 samples passed, scores 0.9 0.4 0.8; passed",
    "  journeys/weather.scenario.json:9 turn 1 'turn 1': 1 of 3 samples passed, scores 0.2 0.9 0.3; failed",
  ]);
  const stable = renderRunSummary(sampleRunResults([sampleConversation("calm", [judged(1, [0.9, 0.8, 0.95])])]), {
    files: { results: "r.json", report: "r.html" },
  });
  assert.equal(
    stable.some((line) => line.includes("unstable")),
    false,
    "no line when every verdict held still",
  );
});

test("the Markdown job summary lists the unstable verdicts under their own heading", () => {
  const markdown = renderSummary(shardOne);
  assert.match(
    markdown,
    /### Unstable verdicts\n\nThe judge's samples disagreed on 1 verdict \(`JUDGE_UNSTABLE=report` gives each its majority's outcome, `fail` fails it\):\n\n- journeys\/greeting\.scenario\.json:7 turn 1 'turn 1': 2 of 3 samples passed, scores 0\.9 0\.4 0\.8; passed\n/,
  );
  assert.doesNotMatch(renderSummary(sampleRunResults([])), /Unstable/);
});
