import assert from "node:assert/strict";
import { test } from "node:test";
import { renderReport } from "../../../../src/testing/report/html/render-report.ts";
import { secretsOf } from "../../../../src/testing/report/without-secrets.ts";
import { changedRuns } from "../../../support/changed-runs.ts";
import { sampleConversation, sampleRunResults, sampleTurn } from "../../../support/sample-run-results.ts";

const SCRIPT = "<script>alert(1)</script>";
const IMG = `"><img src=x onerror=alert(2)>`;

/** The page's markup with its one script of its own taken out. */
function markupOf(page: string): string {
  const start = page.lastIndexOf("<script>");
  return page.slice(0, start) + page.slice(page.indexOf("</script>", start) + "</script>".length);
}

test("every text from a model, a user, a stored session or a scenario is escaped: the injections show as text and add no element", () => {
  const turn = sampleTurn(1, {
    label: SCRIPT,
    input: SCRIPT,
    answer: { text: IMG, contentType: "text/plain" },
    outcome: "failed",
    location: IMG,
    checks: [
      {
        contract: "persisted",
        name: IMG,
        outcome: "failed",
        message: SCRIPT,
        expected: SCRIPT,
        actual: { [IMG]: IMG },
      },
      {
        contract: "judge",
        name: "expectedResponse",
        outcome: "failed",
        verdict: { pass: false, score: 0.2, minScore: 0.7, reason: SCRIPT, missing: [IMG], contradictions: [SCRIPT] },
      },
    ],
    judge: { outcome: "failed", score: 0.2, minScore: 0.7, reason: SCRIPT, expected: IMG },
    stored: { step: IMG, runStatus: "running", turns: 1 },
    changed: {
      step: { from: null, to: IMG },
      state: { [IMG]: { added: { [SCRIPT]: IMG }, changed: { k: { from: SCRIPT, to: IMG } }, removed: [SCRIPT] } },
    },
  });
  const results = sampleRunResults(
    [sampleConversation(IMG, [turn], { flowName: SCRIPT, tags: [IMG], reason: SCRIPT })],
    {
      pins: { [IMG]: SCRIPT },
      specsNotLoaded: [{ file: IMG, message: SCRIPT }],
      coverage: { [SCRIPT]: { scenarios: 1, steps: { [IMG]: true }, tools: { [`${IMG}.tool`]: [SCRIPT] } } },
    },
  );
  const markup = markupOf(renderReport(results));
  assert.match(markup, /<div class="labelling" hidden data-draft="/);
  assert.doesNotMatch(markup, /<script|<img/i);
  assert.ok(markup.includes("&lt;script&gt;alert(1)&lt;/script&gt;"));
  assert.ok(markup.includes("&quot;&gt;&lt;img src=x onerror=alert(2)&gt;"));
});

test("no secret of the environment appears on the page: an API key and FLOW_HEADERS values an answer or an error echoed are redacted", () => {
  const env = {
    OPENAI_API_KEY: "sk-live-0123456789abcdef",
    FLOW_HEADERS: JSON.stringify({ Authorization: "Bearer staging-token-987654" }),
    HOME: "/home/someone",
  };
  const turn = sampleTurn(1, {
    answer: { text: `your key is sk-live-0123456789abcdef and "Bearer staging-token-987654"` },
    checks: [
      {
        contract: "transport",
        name: "status",
        outcome: "failed",
        message: "sent Authorization: Bearer staging-token-987654",
      },
    ],
    outcome: "failed",
  });
  const page = renderReport(sampleRunResults([sampleConversation("leaky", [turn])]), { secrets: secretsOf(env) });
  assert.ok(!page.includes("sk-live-0123456789abcdef"));
  assert.ok(!page.includes("staging-token-987654"));
  assert.match(page, /your key is \[redacted\]/);
  assert.deepEqual(
    secretsOf(env),
    ["sk-live-0123456789abcdef", "Bearer staging-token-987654"],
    "only credential-named variables and FLOW_HEADERS values are secrets",
  );
});

test("failed conversations come first and open, passed and skipped ones folded after them", () => {
  const passed = sampleConversation("a-passes", [sampleTurn(1)]);
  const skipped = sampleConversation("b-skips", [sampleTurn(1, { outcome: "skipped", skipReason: "live-only" })]);
  const failed = sampleConversation("c-fails", [
    sampleTurn(1, {
      outcome: "failed",
      checks: [
        {
          contract: "persisted",
          name: "expectedActiveStep",
          outcome: "failed",
          message: "wrong step",
          expected: "A",
          actual: "B",
        },
      ],
    }),
  ]);
  const page = renderReport(sampleRunResults([passed, skipped, failed]));
  const order = [...page.matchAll(/<details class="conversation (\w+)"( open)?/g)].map(
    (match) => `${match[1]}${match[2] ?? ""}`,
  );
  assert.deepEqual(order, ["failed open", "passed", "skipped"]);
  assert.match(page, /<b>expected<\/b><pre class="text">A<\/pre><\/div><div><b>actual<\/b><pre class="text">B<\/pre>/);
});

test("a long text is folded behind its beginning, never cut: the whole of it is on the page", () => {
  const long = Array.from({ length: 400 }, (_, index) => `line ${index}`).join("\n");
  const page = renderReport(
    sampleRunResults([sampleConversation("long", [sampleTurn(1, { answer: { text: long } })])]),
  );
  assert.match(
    page,
    /<details class="fold"><summary><pre class="text">line 0\nline 1\nline 2\nline 3…<\/pre><span class="more">show all \d+ characters, 400 lines/,
  );
  assert.ok(page.includes("line 399"));
});

test("a turn stored by a target that keeps no count of turns says the count is unknown on the page, never 0", () => {
  const counted = sampleTurn(1, { stored: { step: "greet", runStatus: "running", turns: 1 } });
  const uncounted = sampleTurn(2, { stored: { step: "ask_age", runStatus: "running" } });
  const page = renderReport(sampleRunResults([sampleConversation("graph", [counted, uncounted])]));
  assert.match(page, /stored: greet · running · 1 turn</);
  assert.match(page, /stored: ask_age · running · turn count unknown</);
  assert.doesNotMatch(page, /turn 0|0 turns|turn undefined/);
});

test("a CSV answer is shown as a table, and an event stream's answer with its event count", () => {
  const csv = sampleTurn(1, { answer: { text: "sku,qty\nA-1,2\n", contentType: "text/csv; charset=utf-8" } });
  const stream = sampleTurn(2, {
    answer: { text: "joined answer", contentType: "text/event-stream" },
    response: {
      status: 200,
      headers: {},
      body: [
        { event: "delta", data: "x" },
        { event: "done", data: "{}" },
      ],
    },
  });
  const page = renderReport(sampleRunResults([sampleConversation("answers", [csv, stream])]));
  assert.match(
    page,
    /<table class="csv"><tr><th>sku<\/th><th>qty<\/th><\/tr><tr><td>A-1<\/td><td>2<\/td><\/tr><\/table>/,
  );
  assert.match(page, /text\/event-stream · 2 events<\/span><pre class="text">joined answer<\/pre>/);
});

test("repeats show each turn's pass rate over them and its judge scores' spread", () => {
  const judged = (score: number, outcome: "passed" | "failed") => ({ outcome, score, minScore: 0.7 });
  const repeats = [0.9, 0.5].map((score, index) =>
    sampleConversation("flaky", [sampleTurn(1, { judge: judged(score, score >= 0.7 ? "passed" : "failed") })], {
      repeat: { index: index + 1, of: 2 },
      id: `flaky@${index + 1}`,
    }),
  );
  const page = renderReport(sampleRunResults(repeats));
  assert.match(page, /<h2>Repeats<\/h2><h3>flaky <span class="facts">2 repeats<\/span><\/h3>/);
  assert.match(
    page,
    /<td>turn 1<\/td><td><span class="bar"><span class="fill fail" style="width:50%"><\/span><\/span> 1\/2<\/td>/,
  );
  assert.match(page, /style="left:50%;width:40%"><\/span><\/span> 0\.50–0\.90/);
});

test("flow coverage shows each step reached or not and each tool's outcomes, or that it was never called", () => {
  const coverage = {
    BasicFlow: {
      scenarios: 2,
      steps: { NameStep: true, AddressStep: false },
      tools: { "NameStep.save_name": ["advance", "stay"], "AddressStep.check": [] },
    },
  };
  const page = renderReport(sampleRunResults([], { coverage }));
  assert.match(
    page,
    /<h3>BasicFlow <span class="facts">2 scenarios<\/span> <span class="facts">steps 1 of 2<\/span><\/h3>/,
  );
  assert.match(page, /<span class="chip miss" title="never reached">AddressStep<\/span>/);
  assert.match(
    page,
    /<code>NameStep\.save_name<\/code><\/td><td><span class="chip pass">advance<\/span> <span class="chip pass">stay<\/span>/,
  );
  assert.match(page, /<code>AddressStep\.check<\/code><\/td><td><span class="chip miss">never called<\/span>/);
});

test("--compare folds under what changed the turns whose outcome or judge score moved, worsened ones before improved ones, matched by file, case, repeat and label", () => {
  const run = (outcomes: ("passed" | "failed")[], score: number) =>
    sampleRunResults([
      sampleConversation(
        "moves",
        outcomes.map((outcome, index) =>
          sampleTurn(index + 5, {
            label: `step ${index}`,
            outcome,
            judge: { outcome: "passed", score: index === 2 ? score : 1 },
          }),
        ),
      ),
    ]);
  const older = run(["failed", "passed", "passed", "passed"], 0.9);
  const page = renderReport(run(["passed", "failed", "passed", "passed"], 0.8), { compare: older });
  const moved = [...page.matchAll(/<tr class="(worse|better)"><td>([^<]+)<\/td>/g)].map(
    (match) => `${match[1]} ${match[2]}`,
  );
  assert.deepEqual(moved, ["worse moves › step 1", "worse moves › step 2", "better moves › step 0"]);
  assert.match(page, /<details class="moved-turns"><summary>3 turns whose outcome or judge score moved<\/summary>/);
  assert.match(page, /<div class="change-group" data-group="still failing">/);
});

test("--compare puts what changed right under the header, before everything else: its groups in order, each scenario with where it fails now, escaped", () => {
  const { older, newer } = changedRuns();
  newer.conversations[0]!.reason = SCRIPT;
  const page = renderReport(newer, { compare: older });
  const header = page.indexOf("</header>") + "</header>".length;
  assert.equal(page.indexOf('<section class="panel changes-panel">'), header);
  assert.deepEqual(
    [
      ...page.matchAll(/<div class="change-group" data-group="([^"]+)"><h3>([^<]+) <span class="facts">(\d+)<\/span>/g),
    ].map((match) => `${match[1]}: ${match[2]} ${match[3]}`),
    ["newly failing: Newly failing 1", "fixed: Fixed 1", "flaky: Flaky 1"],
  );
  assert.ok(
    page.includes(
      '<li><span class="name">BasicFlow: checkout</span><ul class="failures"><li><code>journeys/checkout.scenario.json:12</code> <span class="reason">&lt;script&gt;alert(1)&lt;/script&gt;</span></li></ul></li>',
    ),
  );
  assert.match(page, /<p class="others">1 more scenario unchanged\.<\/p>/);
  assert.ok(!renderReport(newer).includes('<section class="panel changes-panel">'));
});

test("the header shows when the run started and its wall time, the commit, shards, models, judge pass rate, pins and tokens", () => {
  const judged = sampleTurn(1, { judge: { outcome: "passed", score: 0.9, minScore: 0.7 } });
  const failedJudge = sampleTurn(2, { judge: { outcome: "failed", score: 0.4, minScore: 0.7 } });
  const conversation = sampleConversation("judged", [judged, failedJudge], {
    tokens: { model: { input: 120, output: 30 }, judge: { input: 40, output: 10 } },
  });
  const page = renderReport(
    sampleRunResults([conversation], {
      commit: "0123456789abcdef0123",
      shards: ["1/2", "2/2"],
      pins: { JUDGE_MODEL: "gpt-judge", OPENAI_API_KEY: "[redacted]" },
      models: { BasicFlow: "live" },
    }),
  );
  const header = page.slice(page.indexOf("<header"), page.indexOf("</header>"));
  assert.match(header, /<dt>when<\/dt><dd>2026-12-01T10:00:00\.000Z · 4\.0 s<\/dd>/);
  assert.match(header, /<dt>commit<\/dt><dd><code>0123456789ab<\/code><\/dd>/);
  assert.match(header, /<dt>shards<\/dt><dd>1\/2, 2\/2<\/dd>/);
  assert.match(header, /<dt>models<\/dt><dd><code>BasicFlow=live<\/code><\/dd>/);
  assert.match(header, /<dt>judge<\/dt><dd>1 of 2 passed \(50%\) · <code>gpt-judge<\/code><\/dd>/);
  assert.match(header, /<code>OPENAI_API_KEY=\[redacted\]<\/code>/);
  assert.match(header, /<dt>tokens<\/dt><dd>200 \(model 120 in, 30 out; judge 40 in, 10 out\)<\/dd>/);
  assert.match(
    header,
    /<span class="label">turns<\/span><span class="count">2<\/span><span class="pass">2 passed<\/span>/,
  );
});

test("the new-flow checklist shows each flow's points ✓, ✗, – or ?, with what proves them or what to add, open where one is missing", () => {
  const checklist = [
    {
      flow: "TeaFlow",
      scenarios: { total: 1, ran: 1 },
      judged: true,
      strict: true,
      points: [
        {
          id: "4",
          status: "missing" as const,
          detail: `no turn shows a tool refusing input with stay: add one to ${SCRIPT}`,
        },
        { id: "1", status: "proved" as const, detail: "tea-flow.scenario.json turn 2 advanced ChoiceStep → NoteStep" },
        { id: "9", status: "not applicable" as const, detail: "no child flow" },
      ],
    },
    {
      flow: "QuietFlow",
      scenarios: { total: 2, ran: 1 },
      judged: false,
      strict: false,
      points: [{ id: "1", status: "not judged" as const, detail: "1 of its 2 scenario files ran" }],
    },
  ];
  const page = renderReport(sampleRunResults([], { checklist }));
  const section = page.slice(page.indexOf("<h2>New-flow checklist</h2>"));
  assert.ok(page.includes("<h2>New-flow checklist</h2>"));
  assert.match(
    section,
    /<details class="flow" open><summary><h3>TeaFlow <span class="facts">1 of 1 scenario files ran · 1 not proved · strict<\/span>/,
  );
  assert.match(
    section,
    /<span class="chip fail" title="missing">✗ 4<\/span><\/td><td>no turn shows a tool refusing input with stay: add one to &lt;script&gt;/,
  );
  assert.match(section, /<span class="chip pass" title="proved">✓ 1<\/span>/);
  assert.match(section, /<span class="chip miss" title="not applicable">– 9<\/span>/);
  assert.match(
    section,
    /<details class="flow"><summary><h3>QuietFlow <span class="facts">1 of 2 scenario files ran · not judged: not all its scenarios ran<\/span>/,
  );
  assert.doesNotMatch(markupOf(page), /<script>alert/);
});
