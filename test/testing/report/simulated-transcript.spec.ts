import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { failed } from "../../../src/testing/checks/check.ts";
import { renderResultConversation, renderTranscript } from "../../../src/testing/report/render-transcript.ts";
import type { Transcript } from "../../../src/testing/report/transcript.ts";
import { TranscriptWriter } from "../../../src/testing/report/transcript-writer.ts";
import type { LoadedScenario } from "../../../src/testing/scenario/scenario.ts";
import { sampleSimulated, sampleTurn } from "../../support/sample-run-results.ts";
import { tempDir } from "../../support/temp-path.ts";

const HEADER = [
  "persona  Ada, a busy nurse",
  "goal     book a visit for Friday",
  "user     terse · played by scripted · 2 messages",
];

test("a simulated conversation of a run's results prints its user and end reason under its pins, and marks its user's turns with their reason", () => {
  const conversation = sampleSimulated("booking", { index: 1, of: 1 }, "passed", {
    turns: [
      sampleTurn(1, { label: "opening" }),
      sampleTurn(2, { label: "user 1", simulated: { turn: 1, reason: "gives the date" } }),
    ],
  });
  const lines = renderResultConversation(conversation).split("\n");
  const pins = lines.indexOf("pins     none");
  assert.deepEqual(lines.slice(pins + 1, pins + 6), [...HEADER, "ended    user-done: booked for Friday", ""]);
  assert.ok(lines.includes("── 1. opening ✓  200"), "an opening turn is not marked");
  const at = lines.indexOf("── 2. user 1 ✓  200 · simulated user, message 1");
  assert.notEqual(at, -1, lines.join("\n"));
  assert.deepEqual(lines.slice(at + 1, at + 3), ["   user       input 2", "   why        gives the date"]);
});

test("a conversation that is not simulated prints no simulation lines", () => {
  const text = renderResultConversation(
    sampleSimulated("plain", { index: 1, of: 1 }, "passed", { simulation: undefined }),
  );
  assert.doesNotMatch(text, /^(persona|goal|user|ended) /m);
});

test("a failed simulated conversation's transcript holds its user as the scenario gives it and renders it with how it ended", async () => {
  const dir = await tempDir("simulated-transcript");
  try {
    const loaded: LoadedScenario = {
      file: "journeys/booking.scenario.json",
      name: "booking",
      scenario: {
        flowName: "BasicFlow",
        turns: [],
        user: { persona: "Ada", goal: "book Friday", style: "changes-mind" },
      },
    };
    const writer = new TranscriptWriter(dir.path);
    writer.listener({
      type: "scenario:start",
      scenario: loaded,
      target: { baseUrl: "http://127.0.0.1:1", store: "memory", pins: {} },
    });
    writer.listener({
      type: "turn:end",
      report: { number: 1, label: "user 1", input: "Friday?", outcome: "passed", checks: [], simulated: { turn: 1 } },
    });
    writer.listener({
      type: "final",
      report: {
        outcome: "failed",
        failure: "success: the flow did not complete",
        checks: [failed("success", "completed", "the run is still running")],
        simulation: { player: "live gpt-4o-mini", userTurns: 1, end: { reason: "user-done", detail: "gave up" } },
      },
    });
    writer.listener({ type: "scenario:end", outcome: "failed" });
    const transcript = JSON.parse(readFileSync(join(dir.path, "booking-contract-failure.json"), "utf8")) as Transcript;
    assert.deepEqual(transcript.scenario.user, { persona: "Ada", goal: "book Friday", style: "changes-mind" });
    const lines = renderTranscript(transcript).split("\n");
    assert.deepEqual(lines.slice(lines.indexOf("persona  Ada"), lines.indexOf("persona  Ada") + 4), [
      "persona  Ada",
      "goal     book Friday",
      "user     changes-mind · played by live gpt-4o-mini · 1 message",
      "ended    user-done: gave up",
    ]);
    assert.ok(lines.includes("── 1. user 1 ✓  no answer · simulated user, message 1"), lines.join("\n"));
  } finally {
    dir.remove();
  }
});
