import assert from "node:assert/strict";
import { test } from "node:test";
import { totalsOf } from "../../../src/testing/report/merge-run-results.ts";
import { renderJunit, xmlAttribute, xmlText } from "../../../src/testing/report/render-junit.ts";
import { RESULTS_VERSION, type ConversationResult, type RunResults } from "../../../src/testing/report/run-results.ts";
import { sampleSimulated } from "../../support/sample-run-results.ts";
import { wellFormedXml } from "../../support/well-formed-xml.ts";

const HOSTILE = `a <b> & "c" 'd' \u0001\u001b[31m\u0000 e\ud800`;

function conversationSaying(text: string): ConversationResult {
  return {
    id: `journeys/x.scenario.json#${text}`,
    file: `journeys/${text}.scenario.json`,
    name: text,
    flowName: "F<low>",
    repeat: { index: 1, of: 1 },
    outcome: "failed",
    ran: true,
    reason: text,
    pins: {},
    models: {},
    tokens: { model: { input: 0, output: 0 }, judge: { input: 0, output: 0 } },
    turns: [
      {
        number: 1,
        label: text,
        input: text,
        outcome: "failed",
        failure: `line one ${text}\nline two`,
        checks: [],
        judge: { outcome: "failed", message: text },
      },
      { number: 2, label: "next", input: "x", outcome: "skipped", skipReason: text, checks: [] },
    ],
    final: { outcome: "skipped", skipReason: "turn 1 failed", checks: [] },
  };
}

function resultsOf(conversations: ConversationResult[]): RunResults {
  return {
    results: RESULTS_VERSION,
    startedAt: "2025-01-01T00:00:00.000Z",
    endedAt: "2025-01-01T00:00:02.500Z",
    pins: {},
    models: {},
    totals: totalsOf(conversations),
    conversations,
    specsNotLoaded: [{ file: "specs/broken.spec.ts", message: HOSTILE }],
  };
}

test("text and attributes escape <, &, > and quotes, and show the control characters XML cannot hold as \\u escapes", () => {
  assert.equal(xmlText(HOSTILE), `a &lt;b&gt; &amp; "c" 'd' \\u0001\\u001b[31m\\u0000 e\\ud800`);
  assert.equal(
    xmlAttribute(`${HOSTILE}\n\t`),
    `a &lt;b&gt; &amp; &quot;c&quot; &apos;d&apos; \\u0001\\u001b[31m\\u0000 e\\ud800&#10;&#9;`,
  );
  assert.equal(xmlText("emoji 😀 kept"), "emoji 😀 kept", "a surrogate pair is one character, kept as it is");
});

test("the JUnit report of hostile names and messages is well-formed XML with a case per turn, judge and final state", () => {
  const xml = renderJunit(resultsOf([conversationSaying(HOSTILE)]));
  assert.deepEqual(wellFormedXml(xml), []);
  assert.match(
    xml,
    /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites name="flowcheck" tests="5" failures="3" errors="0" skipped="2" time="2\.500">/,
  );
  assert.match(
    xml,
    /<failure message="line one a &lt;b&gt; &amp; &quot;c&quot; &apos;d&apos; \\u0001\\u001b\[31m\\u0000 e\\ud800" type="scenario_failed">line one a &lt;b&gt;/,
  );
  assert.match(xml, /<testcase classname="F&lt;low&gt;: a &lt;b&gt;[^"]*" name="1\. a &lt;b&gt;[^"]* · judge"/);
  assert.match(xml, /<testcase [^>]*name="final state"[^>]*><skipped message="turn 1 failed"\/><\/testcase>/);
  assert.match(
    xml,
    /<testsuite name="specs\/broken\.spec\.ts" [^>]*>\n\s*<testcase [^>]*name="specs\/broken\.spec\.ts loads"/,
  );
});

test("the XML check this relies on finds what is not well-formed", () => {
  const declaration = '<?xml version="1.0" encoding="UTF-8"?>\n';
  assert.deepEqual(wellFormedXml(`${declaration}<a x="1"><b/></a>`), []);
  assert.notDeepEqual(wellFormedXml(`${declaration}<a><b></a>`), []);
  assert.notDeepEqual(wellFormedXml(`${declaration}<a>1 < 2</a>`), []);
  assert.notDeepEqual(wellFormedXml(`${declaration}<a>fish & chips</a>`), []);
  assert.notDeepEqual(wellFormedXml(`${declaration}<a x="say "hi""/>`), []);
  assert.notDeepEqual(wellFormedXml(`${declaration}<a>\u0001</a>`), []);
  assert.notDeepEqual(wellFormedXml(`${declaration}<a/><b/>`), []);
});

test("a simulated conversation's suite has a case per turn its user wrote and its user and end reason as properties, escaped", () => {
  const conversation = sampleSimulated("booking", { index: 1, of: 1 }, "failed", {
    simulation: {
      persona: HOSTILE,
      goal: "book <Friday>",
      style: "rule-bender",
      player: "live gpt-4o-mini",
      userTurns: 2,
      end: { reason: "max-turns", detail: "wrote 2 messages & stopped" },
    },
  });
  const xml = renderJunit(resultsOf([conversation]));
  assert.deepEqual(wellFormedXml(xml), []);
  assert.match(xml, /<testcase [^>]*name="1\. user 1"[^>]*\/>\n\s*<testcase [^>]*name="2\. user 2"/);
  assert.match(xml, /<property name="simulation\.goal" value="book &lt;Friday&gt;"\/>/);
  assert.match(xml, /<property name="simulation\.player" value="live gpt-4o-mini"\/>/);
  assert.match(xml, /<property name="simulation\.end" value="max-turns: wrote 2 messages &amp; stopped"\/>/);
  assert.match(xml, /<property name="simulation\.persona" value="a &lt;b&gt; &amp; &quot;c&quot;/);
  assert.match(xml, /<testsuite name="BasicFlow: booking"[^>]*>\n\s*<properties>/, "properties come before the cases");
});

test("a suite of a conversation that is not simulated has no properties", () => {
  assert.doesNotMatch(renderJunit(resultsOf([conversationSaying("plain")])), /<properties>/);
});
