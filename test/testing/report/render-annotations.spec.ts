import assert from "node:assert/strict";
import { test } from "node:test";
import {
  ANNOTATIONS_SHOWN,
  escapeMessage,
  escapeProperty,
  renderAnnotations,
} from "../../../src/testing/report/render-annotations.ts";
import type { ConversationResult } from "../../../src/testing/report/run-results.ts";
import { sampleConversation, sampleRunResults as resultsOf, sampleTurn } from "../../support/sample-run-results.ts";

/** `journeys/<name>.scenario.json`, its turn 2 failing on line 12 with a message to escape. */
function conversation(name: string, fields: Partial<ConversationResult> = {}): ConversationResult {
  const failing = sampleTurn(2, {
    label: "two, cities",
    outcome: "failed",
    failure: "expected 100% of\r\nthe cities",
    location: `journeys/${name}.scenario.json:12`,
  });
  return sampleConversation(name, [failing], {
    id: `journeys/${name}.scenario.json#${name}`,
    file: `journeys/${name}.scenario.json`,
    ...fields,
  });
}

test("a message escapes %, CR and LF; a property escapes : and , besides", () => {
  assert.equal(escapeMessage("100% a:b,c\r\nd"), "100%25 a:b,c%0D%0Ad");
  assert.equal(escapeProperty("100% a:b,c\r\nd"), "100%25 a%3Ab%2Cc%0D%0Ad");
});

test("a failing turn, its judge's verdict and a failing final state are errors on their lines; a skipped conversation and a flaky scenario are warnings", () => {
  const failing = conversation("wick", {
    final: { outcome: "failed", failure: "finalState: name", location: "journeys/wick.scenario.json:30", checks: [] },
  });
  failing.turns[0]!.judge = { outcome: "failed", message: "score 0.2 below 0.7" };
  const skipped = conversation("later", { outcome: "skipped", ran: false, reason: "FLOW_MAX_TOKENS spent", turns: [] });
  const results = resultsOf([failing, skipped], {
    specsNotLoaded: [{ file: "test/flows/broken.spec.ts", message: "SyntaxError: Unexpected token" }],
    simulated: {
      scenarios: [
        {
          file: "journeys/sim.scenario.json",
          name: "sim",
          flowName: "BasicFlow",
          tries: 3,
          successes: 2,
          passK: [],
          flaky: true,
        },
      ],
      passK: [],
    },
  });
  assert.deepEqual(renderAnnotations(results, "the job summary"), [
    "::error file=test/flows/broken.spec.ts,line=1,title=test/flows/broken.spec.ts did not load::SyntaxError: Unexpected token",
    "::error file=journeys/wick.scenario.json,line=12,title=BasicFlow%3A wick · turn 2 'two%2C cities'::expected 100%25 of%0D%0Athe cities",
    "::error file=journeys/wick.scenario.json,line=12,title=BasicFlow%3A wick · turn 2 'two%2C cities' · judge::score 0.2 below 0.7",
    "::error file=journeys/wick.scenario.json,line=30,title=BasicFlow%3A wick · final state::finalState: name",
    "::warning file=journeys/later.scenario.json,line=1,title=BasicFlow%3A later skipped::FLOW_MAX_TOKENS spent",
    "::warning file=journeys/sim.scenario.json,line=1,title=BasicFlow%3A sim is flaky::succeeded in 2 of 3 tries",
  ]);
});

test("a passing run has no annotation, and a failure repeated in several repeats is annotated once", () => {
  assert.deepEqual(renderAnnotations(resultsOf([conversation("ok", { outcome: "passed", turns: [] })]), "x"), []);
  const repeats = [1, 2].map((index) => conversation("wick", { repeat: { index, of: 2 } }));
  assert.equal(renderAnnotations(resultsOf(repeats), "x").length, 1);
});

test("past ten errors and ten warnings, one notice for each counts the rest and says where the summary is", () => {
  const failures = Array.from({ length: 13 }, (_, index) => conversation(`f${index}`));
  const skips = Array.from({ length: 11 }, (_, index) =>
    conversation(`s${index}`, { outcome: "skipped", ran: false, reason: "budget", turns: [] }),
  );
  const lines = renderAnnotations(resultsOf([...failures, ...skips]), "the job summary");
  assert.equal(ANNOTATIONS_SHOWN, 10);
  assert.equal(lines.filter((line) => line.startsWith("::error ")).length, 10);
  assert.equal(lines.filter((line) => line.startsWith("::warning ")).length, 10);
  assert.deepEqual(
    lines.filter((line) => line.startsWith("::notice")),
    [
      "::notice title=flowcheck::3 more failures not annotated: see the job summary",
      "::notice title=flowcheck::1 more warning not annotated: see the job summary",
    ],
  );
  assert.equal(lines[10], "::notice title=flowcheck::3 more failures not annotated: see the job summary");
});
