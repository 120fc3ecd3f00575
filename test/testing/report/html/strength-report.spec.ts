import assert from "node:assert/strict";
import { test } from "node:test";
import { renderReport } from "../../../../src/testing/report/html/render-report.ts";
import type { StrengthResults } from "../../../../src/testing/strength/strength-results.ts";
import { sampleConversation, sampleRunResults } from "../../../support/sample-run-results.ts";

const SCRIPT = "<script>alert(1)</script>";

const difference = {
  scenario: "hotel",
  turn: 2,
  label: `dates ${SCRIPT}`,
  what: "DatesStep.nights saved as 6 instead of 7",
  expectation: `"expectState": { "DatesStep": { "nights": 7 } }`,
};

const at = { turn: { number: 1, label: "greeting" }, message: "refused" };

const strength: StrengthResults = {
  strength: 1,
  startedAt: "2026-12-01T11:00:00.000Z",
  millis: 2500,
  scores: [
    { flow: "HotelFlow", score: 0.5, killed: 2, survived: 2, timedOut: 0, equivalent: 1, notReached: 0 },
    { flow: SCRIPT, score: null, killed: 0, survived: 0, timedOut: 0, equivalent: 0, notReached: 1 },
  ],
  mutants: [
    {
      id: "HotelFlow/DatesStep/save: change state.nights",
      flow: "HotelFlow",
      step: "DatesStep",
      change: "change-value",
      verdict: "survived",
      differences: [difference],
    },
    {
      id: `HotelFlow/${SCRIPT}`,
      flow: "HotelFlow",
      step: "X",
      change: "drop-handoff",
      verdict: "survived",
      differences: [],
    },
    {
      id: "HotelFlow/a: script",
      flow: "HotelFlow",
      step: "a",
      change: "advance-to-stay",
      verdict: "killed",
      by: "script",
      scenario: "hotel",
      check: "script_unmatched",
      ...at,
    },
    {
      id: "HotelFlow/b: cassette",
      flow: "HotelFlow",
      step: "b",
      change: "drop-handoff",
      verdict: "killed",
      by: "cassette",
      scenario: "hotel",
      check: "cassette_mismatch",
      ...at,
    },
    {
      id: "HotelFlow/c: check",
      flow: "HotelFlow",
      step: "c",
      change: "drop-write",
      verdict: "killed",
      by: "check",
      scenario: "hotel",
      check: "expectation expectState.c",
      ...at,
    },
    {
      id: "HotelFlow/d: marked",
      flow: "HotelFlow",
      step: "d",
      change: "drop-write",
      verdict: "equivalent",
      reason: `shown only ${SCRIPT}`,
    },
  ],
  scenarios: ["hotel"],
  failing: [{ scenario: "broken", failure: `turn 1: ${SCRIPT}` }],
  notMeasurable: [{ file: "elsewhere/remote.scenario.json", why: "flow Remote is not one the project registers" }],
};

function sectionOf(page: string): string {
  const start = page.indexOf('<section class="panel strength">');
  assert.notEqual(start, -1, "the strength section is on the page");
  return page.slice(start, page.indexOf("</section>", start));
}

test("a strength run's section shows each flow's score, the survivors with their suggestions, and the kills by script and by cassette apart", () => {
  const section = sectionOf(renderReport(sampleRunResults([sampleConversation("hotel", [])]), { strength }));
  assert.match(
    section,
    /<tr><td>HotelFlow<\/td><td>0\.50<\/td><td>2<\/td><td>0<\/td><td>2<\/td><td>1<\/td><td>0<\/td><\/tr>/,
  );
  assert.match(section, /<td>–<\/td>/, "a flow with nothing counted has no score");
  const survivors = section.slice(
    section.indexOf("<h3>Survivors</h3>"),
    section.indexOf("<h3>Killed only by the scripted model</h3>"),
  );
  assert.match(
    survivors,
    /change state\.nights<\/code><ul><li>hotel turn 2 .* add &quot;expectState&quot;: \{ &quot;DatesStep&quot;: \{ &quot;nights&quot;: 7 \} \}<\/li>/,
  );
  assert.doesNotMatch(survivors, /HotelFlow\/c: check/, "a mutant a check killed is not a survivor");
  const script = section.slice(
    section.indexOf("<h3>Killed only by the scripted model</h3>"),
    section.indexOf("<h3>Killed only by a cassette</h3>"),
  );
  assert.match(script, /HotelFlow\/a: script<\/code>: hotel turn 1 &#39;greeting&#39; script_unmatched/);
  assert.doesNotMatch(script, /cassette_mismatch/);
  assert.match(
    section,
    /<h3>Killed only by a cassette<\/h3><ul class="mutants"><li><code>HotelFlow\/b: cassette<\/code>/,
  );
  assert.match(section, /<h3>Marked equivalent<\/h3>.*HotelFlow\/d: marked<\/code>: shown only /);
  assert.match(section, /<h3>Left out, failing unmutated<\/h3>.*broken/);
  assert.match(section, /<h3>Not measurable<\/h3>.*remote\.scenario\.json/);
});

test("every text of a strength run is escaped on the page, and a page without one has no section", () => {
  const page = renderReport(sampleRunResults([sampleConversation("hotel", [])]), { strength });
  assert.doesNotMatch(page, /<script>alert/);
  assert.match(sectionOf(page), /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  assert.doesNotMatch(renderReport(sampleRunResults([sampleConversation("hotel", [])])), /class="panel strength"/);
});
