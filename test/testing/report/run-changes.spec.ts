import assert from "node:assert/strict";
import { test } from "node:test";
import { playsText, runChanges } from "../../../src/testing/report/run-changes.ts";
import type { ConversationResult } from "../../../src/testing/report/run-results.ts";
import { sampleConversation, sampleRunResults, sampleTurn } from "../../support/sample-run-results.ts";

/** Scenario `name` (or its case `caseLabel`), one conversation per outcome, each a repeat of them. */
function scenario(
  name: string,
  outcomes: ("passed" | "failed" | "skipped")[],
  caseLabel?: string,
): ConversationResult[] {
  return outcomes.map((outcome, index) =>
    sampleConversation(
      caseLabel ? `${name}.${caseLabel}` : name,
      [
        sampleTurn(1, {
          outcome,
          ...(outcome === "failed" ? { location: `journeys/${name}.scenario.json:${index + 4}` } : {}),
        }),
      ],
      {
        file: `journeys/${name}.scenario.json`,
        ...(caseLabel ? { caseLabel } : {}),
        repeat: { index: index + 1, of: outcomes.length },
        ...(outcome === "failed" ? { reason: `turn 1 failed in repeat ${index + 1}` } : {}),
      },
    ),
  );
}

test("each scenario, its repeats together and matched by file and case, is newly failing, fixed, still failing, flaky, new or removed, in that order", () => {
  const older = sampleRunResults(
    [
      ...scenario("removed", ["passed"]),
      ...scenario("mixed-then", ["passed", "failed"]),
      ...scenario("steady", ["passed"]),
      ...scenario("breaks", ["passed", "passed"]),
      ...scenario("mends", ["failed"]),
      ...scenario("stuck", ["failed"]),
      ...scenario("cases", ["passed"], "a"),
      ...scenario("cases", ["passed"], "b"),
      ...scenario("paused", ["passed"]),
      ...scenario("unplayed-then", ["skipped"]),
    ],
    { startedAt: "2026-11-30T03:17:00.000Z", commit: "a1b2c3d4e5f6a7b8c9d0" },
  );
  const now = sampleRunResults([
    ...scenario("added", ["failed"]),
    ...scenario("mixed-then", ["passed", "passed"]),
    ...scenario("wobbles", ["passed", "failed", "failed"]),
    ...scenario("steady", ["passed"]),
    ...scenario("breaks", ["failed", "failed"]),
    ...scenario("mends", ["passed"]),
    ...scenario("stuck", ["failed"]),
    ...scenario("cases", ["passed"], "a"),
    ...scenario("cases", ["failed"], "b"),
    ...scenario("paused", ["skipped"]),
    ...scenario("unplayed-then", ["failed"]),
  ]);
  // wobbles is new: flaky only compares a scenario both runs have.
  const changes = runChanges(now, older);
  assert.deepEqual(
    changes.changes.map((change) => `${change.group}: ${change.scenario}`),
    [
      "newly failing: BasicFlow: breaks",
      "newly failing: BasicFlow: cases.b",
      "newly failing: BasicFlow: unplayed-then",
      "fixed: BasicFlow: mends",
      "still failing: BasicFlow: stuck",
      "flaky: BasicFlow: mixed-then",
      "new: BasicFlow: added",
      "new: BasicFlow: wobbles",
      "removed: BasicFlow: removed",
    ],
  );
  assert.deepEqual(changes.since, { startedAt: "2026-11-30T03:17:00.000Z", commit: "a1b2c3d4e5f6" });
  assert.equal(changes.unchanged, 2, "steady and cases.a");
  assert.equal(changes.skippedNow, 1, "paused");
  const breaks = changes.changes[0]!;
  assert.deepEqual(breaks.now, { passed: 0, failed: 2, skipped: 0 });
  assert.deepEqual(breaks.before, { passed: 2, failed: 0, skipped: 0 });
  assert.deepEqual(breaks.failures, [
    { at: "journeys/breaks.scenario.json:4", reason: "turn 1 failed in repeat 1" },
    { at: "journeys/breaks.scenario.json:5", reason: "turn 1 failed in repeat 2" },
  ]);
});

test("a scenario whose repeats both passed and failed in this run is flaky whatever it did before", () => {
  const older = sampleRunResults([...scenario("booking", ["failed", "failed", "failed"])]);
  const now = sampleRunResults([...scenario("booking", ["passed", "failed", "passed"])]);
  const [change] = runChanges(now, older).changes;
  assert.equal(change?.group, "flaky");
  assert.equal(playsText(change.now!), "2 of 3 passed");
  assert.equal(playsText(change.before!), "0 of 3 passed");
});

test("a run like the older one has no change, only its count, and the turns whose judge score moved", () => {
  const run = (score: number) =>
    sampleRunResults([
      sampleConversation("graded", [sampleTurn(1, { label: "greets", judge: { outcome: "passed", score } })]),
    ]);
  const changes = runChanges(run(0.7), run(0.9));
  assert.deepEqual(changes.changes, []);
  assert.equal(changes.unchanged, 1);
  assert.deepEqual(changes.turnMoves, [
    {
      now: { where: "graded › greets", outcome: "passed", score: 0.7 },
      then: { where: "graded › greets", outcome: "passed", score: 0.9 },
      worse: true,
    },
  ]);
});

test("a scenario's plays read as its one outcome, or how many of its repeats passed and how many were skipped", () => {
  assert.equal(playsText({ passed: 0, failed: 1, skipped: 0 }), "failed");
  assert.equal(playsText({ passed: 0, failed: 0, skipped: 1 }), "skipped");
  assert.equal(playsText({ passed: 2, failed: 1, skipped: 1 }), "2 of 3 passed, 1 skipped");
  assert.equal(playsText({ passed: 0, failed: 0, skipped: 2 }), "2 skipped");
});
