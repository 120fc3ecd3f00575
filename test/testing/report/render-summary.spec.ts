import assert from "node:assert/strict";
import { test } from "node:test";
import { totalsOf } from "../../../src/testing/report/merge-run-results.ts";
import { simulatedSummary } from "../../../src/testing/report/pass-k.ts";
import { renderSummary } from "../../../src/testing/report/render-summary.ts";
import { RESULTS_VERSION, type ConversationResult, type TurnResult } from "../../../src/testing/report/run-results.ts";
import { changedRuns } from "../../support/changed-runs.ts";
import { sampleConversation, sampleRunResults, sampleSimulated, sampleTurn } from "../../support/sample-run-results.ts";

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

test("compared with an older run, the job summary starts, under its totals, with what changed: newly failing, fixed, flaky, in that order, each failure on its line", () => {
  const { older, newer } = changedRuns();
  const lines = renderSummary(newer, older).split("\n");
  const start = lines.indexOf("### Changed since 2026-11-30T03:17:00.000Z (a1b2c3d4e5f6)");
  assert.equal(start, 5, lines.slice(0, 8).join("\n"));
  assert.deepEqual(lines.slice(start, start + 14), [
    "### Changed since 2026-11-30T03:17:00.000Z (a1b2c3d4e5f6)",
    "",
    "**Newly failing** (1)",
    "- `BasicFlow: checkout` (journeys/checkout.scenario.json:12): turn 2 'turn 2': expected active step AddressStep, got NameStep",
    "",
    "**Fixed** (1)",
    "- `BasicFlow: greeting`",
    "",
    "**Flaky** (1)",
    "- `BasicFlow: booking`: 2 of 3 passed now, 3 of 3 passed before — (journeys/booking.scenario.json:12): turn 2 'turn 2': expected active step AddressStep, got NameStep",
    "",
    "1 more scenario unchanged.",
    "",
    "| scenario | turn | passed | judge scores (min / median / max) |",
  ]);
  assert.doesNotMatch(renderSummary(newer), /Changed since/);
});

test("compared with a run just like it, every scenario passing in both, the summary says in one line that nothing changed", () => {
  const run = sampleRunResults(["steady", "greeting"].map((name) => sampleConversation(name, [sampleTurn(1)])));
  const lines = renderSummary(run, run).split("\n");
  const start = lines.findIndex((line) => line.startsWith("### Changed since"));
  assert.deepEqual(lines.slice(start + 1, start + 4), [
    "",
    "Nothing changed: 2 scenarios, each with the outcome it had.",
    "",
  ]);
});

test("the job summary gives each flow's coverage and checklist counts, then the checklist's points to add", () => {
  const summary = renderSummary(
    sampleRunResults([sampleConversation("greeting", [sampleTurn(1)])], {
      coverage: {
        BasicFlow: {
          scenarios: 1,
          steps: { NameStep: true, AddressStep: false },
          tools: { "NameStep.save_name": ["advance"] },
        },
        ChildFlow: { childOf: "BasicFlow", scenarios: 0, steps: { PickStep: true }, tools: {} },
      },
      checklist: [
        {
          flow: "BasicFlow",
          scenarios: { total: 1, ran: 1 },
          judged: true,
          strict: false,
          points: [
            { id: "1", status: "proved", detail: "GET /ai/flows lists it" },
            { id: "4", status: "missing", detail: "add a turn whose input NameStep.save_name refuses" },
          ],
        },
      ],
    }),
  );
  const lines = summary.split("\n");
  const table = lines.indexOf("| flow | reached | never reached or called | new-flow checklist |");
  assert.ok(table > 0, summary);
  assert.deepEqual(lines.slice(table + 2, table + 9), [
    "| BasicFlow | 1/2 steps · 1/1 tools | steps never reached: AddressStep | 1 ✓, 1 ✗ to add |",
    "| ↳ ChildFlow | 1/1 steps · 0/0 tools | – | – |",
    "",
    "New-flow checklist points to add:",
    "",
    "- BasicFlow, point 4 (each tool refuses bad input in place): add a turn whose input NameStep.save_name refuses",
    "",
  ]);
});
