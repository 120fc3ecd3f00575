import assert from "node:assert/strict";
import { test } from "node:test";
import { renderReport } from "../../../../src/testing/report/html/render-report.ts";
import { simulatedSummary } from "../../../../src/testing/report/pass-k.ts";
import type { ConversationResult } from "../../../../src/testing/report/run-results.ts";
import {
  sampleConversation,
  sampleRunResults,
  sampleSimulated,
  sampleTurn,
} from "../../../support/sample-run-results.ts";

const SCRIPT = "<script>alert(1)</script>";

function pageOf(conversations: ConversationResult[]): string {
  return renderReport(sampleRunResults(conversations, { simulated: simulatedSummary(conversations)! }));
}

function conversationOf(page: string, name: string): string {
  const start = page.indexOf(`<span class="name">${name}</span>`);
  assert.notEqual(start, -1, `${name} is on the page`);
  const next = page.indexOf('<details class="conversation', start);
  return page.slice(start, next === -1 ? undefined : next);
}

test("a simulated conversation opens with its persona, goal, style, who played the user, its user turns and why it ended", () => {
  const page = pageOf([sampleSimulated("booking", { index: 1, of: 1 }, "failed")]);
  const booking = conversationOf(page, "booking");
  assert.match(booking, /<span class="facts">BasicFlow · 2 turns · simulated user<\/span>/);
  assert.match(
    booking,
    /<div class="body"><p class="where">[^<]*<\/p><dl class="simulation"><dt>persona<\/dt><dd>Ada, a busy nurse<\/dd><dt>goal<\/dt><dd>book a visit for Friday<\/dd>/,
  );
  assert.match(
    booking,
    /<dt>style<\/dt><dd>terse<\/dd><dt>played by<\/dt><dd>scripted<\/dd><dt>user turns<\/dt><dd>2<\/dd><dt>ended<\/dt><dd>max-turns: the user wrote 2 messages, its maxTurns<\/dd><\/dl>/,
  );
});

test("a turn the simulated user wrote is marked, with the user's reason for it when it gave one", () => {
  const booking = sampleSimulated("booking", { index: 1, of: 1 }, "passed", {
    turns: [
      sampleTurn(1, { label: "opening" }),
      sampleTurn(2, { label: "user 1", simulated: { turn: 1, reason: "gives the date" } }),
      sampleTurn(3, { label: "user 2", simulated: { turn: 2 } }),
    ],
  });
  const page = conversationOf(pageOf([booking]), "booking");
  assert.match(page, /1\. opening<\/h4>/, "an opening turn is not marked");
  assert.match(
    page,
    /2\. user 1 <span class="facts">simulated user, message 1<\/span><\/h4><p class="why">the user: gives the date<\/p>/,
  );
  assert.match(page, /3\. user 2 <span class="facts">simulated user, message 2<\/span><\/h4><div class="bubble user">/);
});

test("the page has a pass^k table of each simulated scenario and the run, at k = 1, 2 and the most tries, flaky rows marked", () => {
  const page = pageOf([
    ...(["passed", "failed", "passed", "passed", "failed"] as const).map((outcome, index) =>
      sampleSimulated("booking", { index: index + 1, of: 5 }, outcome),
    ),
    sampleSimulated("refund", { index: 1, of: 1 }, "passed"),
  ]);
  assert.match(
    page,
    /<table class="pass-k"><tr><th>scenario<\/th><th>succeeded<\/th><th>pass\^1<\/th><th>pass\^2<\/th><th>pass\^5<\/th><\/tr>/,
  );
  assert.match(
    page,
    /<tr class="flaky"><td>booking<\/td><td>3\/5 succeeded · flaky<\/td><td>60%<\/td><td>30%<\/td><td>0%<\/td><\/tr>/,
  );
  assert.match(page, /<tr><td>refund<\/td><td>1\/1 succeeded<\/td><td>100%<\/td><td><\/td><td><\/td><\/tr>/);
  assert.match(page, /<tr class="run"><th>run<\/th><th><\/th><td>80%<\/td><td>30%<\/td><td>0%<\/td><\/tr>/);
  assert.match(page, /; simulated users 42 in, 18 out\)/, "the header counts the users' tokens apart");
});

test("a run without simulated users has no pass^k table and no simulation header", () => {
  const page = renderReport(sampleRunResults([sampleConversation("plain", [sampleTurn(1)])]));
  assert.doesNotMatch(page, /<table class="pass-k">|<dl class="simulation">|simulated user/);
});

test("a simulated user's persona, goal, end detail and reason, and a scenario's name, are escaped", () => {
  const hostile = sampleSimulated(SCRIPT, { index: 1, of: 1 }, "passed", {
    turns: [sampleTurn(1, { simulated: { turn: 1, reason: SCRIPT } })],
    simulation: {
      persona: SCRIPT,
      goal: SCRIPT,
      style: "off-topic",
      player: SCRIPT,
      userTurns: 1,
      end: { reason: "user-done", detail: SCRIPT },
    },
  });
  const page = pageOf([hostile]);
  const markup = page.slice(0, page.lastIndexOf("<script>"));
  assert.doesNotMatch(markup, /<script>alert/);
  assert.equal(markup.split("&lt;script&gt;alert(1)&lt;/script&gt;").length - 1, 8);
});
