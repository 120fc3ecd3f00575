import assert from "node:assert/strict";
import { test } from "node:test";
import { renderReport } from "../../../../src/testing/report/html/render-report.ts";
import { judgedTurns } from "../../../../src/testing/report/label-drafts.ts";
import { judgedRunResults, MARKUP_ANSWER } from "../../../support/judged-run-results.ts";
import { sampleConversation, sampleRunResults, sampleTurn } from "../../../support/sample-run-results.ts";

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" };
const unescaped = (text: string) => text.replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity]!);

test("each turn the judge gave a verdict carries its label's draft as the page renders it, answer hash included, read back whole from the escaped attribute", () => {
  const page = renderReport(judgedRunResults());
  const drafts = [...page.matchAll(/<div class="labelling" hidden data-draft="([^"]*)" data-before="(\d+)">/g)].map(
    ([, draft, before]) => ({ draft: JSON.parse(unescaped(draft!)) as unknown, before: Number(before) }),
  );
  const expected = judgedTurns(judgedRunResults()).map(({ draft: { conversation, ...draft } }) => ({
    draft,
    before: conversation.length,
  }));
  assert.deepEqual(drafts, expected);
  assert.ok(drafts.some(({ draft }) => (draft as { answer: string }).answer === MARKUP_ANSWER));
  assert.match(page, /<div id="labels" class="labels" hidden>/);
});

test("a judged turn shows the expectation the judge graded with its verdict, passed or failed, and no empty actual beside it", () => {
  const page = renderReport(judgedRunResults());
  assert.match(
    page,
    /<div class="expectation"><b>expected<\/b><pre class="text">asks for the date of the stay<\/pre><\/div>/,
  );
  assert.match(
    page,
    /<b>expected<\/b><pre class="text">quotes the room&#39;s price &amp; says breakfast is extra<\/pre>/,
  );
  assert.doesNotMatch(page, /<b>actual<\/b>/);
});

test("a page with no verdict to label has no labelling: no buttons, no bar, no conversation kept twice", () => {
  const page = renderReport(
    sampleRunResults([sampleConversation("plain", [sampleTurn(1), sampleTurn(2, { judge: { outcome: "skipped" } })])]),
  );
  assert.doesNotMatch(page, /class="labelling"|id="labels"|data-exchanges/);
});
