import assert from "node:assert/strict";
import { test } from "node:test";
import { answerSha256 } from "../../../src/testing/judge/judge-labels.ts";
import { judgedTurns } from "../../../src/testing/report/label-drafts.ts";
import { judgedRunResults } from "../../support/judged-run-results.ts";
import { sampleConversation, sampleRunResults, sampleTurn } from "../../support/sample-run-results.ts";

test("only turns the judge gave a verdict on an expectation the results name can be labelled: not a skipped judge, one with no score, or no judge", () => {
  const drafts = judgedTurns(judgedRunResults()).map(({ draft }) => [draft.file, draft.caseLabel, draft.turn]);
  assert.deepEqual(drafts, [
    ["journeys/booking.scenario.json", undefined, "asks the date"],
    ["journeys/booking.scenario.json", undefined, "quotes the price"],
    ["journeys/booking.scenario.json", "weekend", "greeting"],
    ["journeys/refund.scenario.json", undefined, "explains refunds"],
  ]);
  const failedCall = sampleTurn(1, { judge: { outcome: "failed", message: "the judge model failed", expected: "x" } });
  const olderResults = sampleTurn(2, { judge: { outcome: "passed", score: 0.9 } });
  assert.deepEqual(judgedTurns(sampleRunResults([sampleConversation("c", [failedCall, olderResults])])), []);
});

test("a draft carries the answer's hash, the input as text, the answered turns before it as the judge read them, the repeat and the verdict", () => {
  const judged = sampleTurn(3, {
    input: { confirm: true },
    answer: { text: "Booked. ✓" },
    judge: { outcome: "failed", score: 0.4, minScore: 0.8, reason: "no date", expected: "confirms the date" },
  });
  const unanswered = sampleTurn(2, { answer: undefined });
  const conversation = sampleConversation("c", [sampleTurn(1), unanswered, judged], { repeat: { index: 2, of: 3 } });
  const [only] = judgedTurns(sampleRunResults([conversation]));
  assert.deepEqual(only?.draft, {
    file: "journeys/c.scenario.json",
    turn: "turn 3",
    expected: "confirms the date",
    answer: "Booked. ✓",
    answerSha256: answerSha256("Booked. ✓"),
    input: '{"confirm":true}',
    repeat: 2,
    judge: { outcome: "failed", score: 0.4, minScore: 0.8, reason: "no date" },
    conversation: [{ user: "input 1", assistant: "answer 1" }],
  });
});
