import assert from "node:assert/strict";
import { test } from "node:test";
import { renderRunSummary } from "../../../src/testing/report/render-run-summary.ts";
import type { RunResults } from "../../../src/testing/report/run-results.ts";
import { BasicFlow } from "../../fixtures/flows/index.ts";
import { RelayFlow } from "../../support/relay-flow.ts";
import { sampleChecklist, sampleCoverage, sampleUnjudged } from "../../support/sample-checklist.ts";
import { simulatedSummary } from "../../../src/testing/report/pass-k.ts";
import { sampleConversation, sampleRunResults, sampleSimulated, sampleTurn } from "../../support/sample-run-results.ts";

const FILES = {
  results: "test/.tmp/run-results.json",
  report: "test/.tmp/report.html",
  coverage: "test/.tmp/flow-coverage.json",
};
const TOTALS =
  "2 conversations: 2 passed, 0 failed, 0 skipped; turns 3 passed, 0 failed, 0 skipped; judge none graded; tokens 0";
const WHERE = [
  "results: test/.tmp/run-results.json (flow coverage: test/.tmp/flow-coverage.json)",
  "report:  test/.tmp/report.html",
];

/** A green run of the fixture flows BasicFlow (with its child AddressCheck) and RelayFlow, its checklist as `fields` set it. */
function fixtureRun(fields: Partial<RunResults> = {}): RunResults {
  const conversations = [
    sampleConversation("basic", [sampleTurn(1), sampleTurn(2)]),
    sampleConversation("relay", [sampleTurn(1)], { flowName: "RelayFlow" }),
  ];
  return sampleRunResults(conversations, {
    coverage: { ...sampleCoverage(BasicFlow, 1), ...sampleCoverage(RelayFlow, 1) },
    checklist: [...sampleChecklist(BasicFlow), ...sampleChecklist(RelayFlow)],
    ...fields,
  });
}

/** The lines of the flows' checklist tables: a mark, then the point's id. */
const tableRows = (lines: string[]) => lines.filter((line) => /^ +[✓✗–?] +(\d+|steps|tools|transitions) /.test(line));

test("a run whose every point is proved ends with its totals, one line per flow and child flow, and where its results and report are", () => {
  assert.deepEqual(renderRunSummary(fixtureRun(), { files: FILES }), [
    "",
    TOTALS,
    "flows: the steps and tools the scenarios reached, and the new-flow checklist (--checklist prints every point):",
    "  BasicFlow       3/3 steps · 3/3 tools · checklist 13 ✓, 2 not in this run",
    "    AddressCheck  1/1 steps · 1/1 tools · checklist 4 ✓",
    "  RelayFlow       2/2 steps · 2/2 tools · checklist 13 ✓, 2 not in this run",
    ...WHERE,
  ]);
});

test("a point to add (✗) shows that flow's whole table under its line, and no other flow's", () => {
  const checklist = [
    ...sampleChecklist(BasicFlow, { BasicFlow: { "4": "missing", "11": "not applicable" } }, { strict: true }),
    ...sampleChecklist(RelayFlow),
  ];
  const lines = renderRunSummary(fixtureRun({ checklist }), { files: FILES });
  assert.match(lines[2]!, /new-flow checklist \(✓ proved, ✗ to add, – not applicable, \? not judged\):$/);
  const basic = lines.indexOf(
    "  BasicFlow       3/3 steps · 3/3 tools · checklist 11 ✓, 1 ✗ to add (strict), 1 n/a, 2 not in this run",
  );
  assert.ok(basic > 0, lines.join("\n"));
  // The table as the full checklist shows it: every point of the flow, in order, under its line.
  const table = lines.slice(basic + 1, basic + 16);
  assert.deepEqual(
    table.map((line) => line.trim().split(/ +/)[1]),
    ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "steps", "tools", "transitions"],
  );
  assert.equal(
    table[3],
    "    ✗  4          each tool refuses bad input in place     add the turn that proves: each tool refuses bad input in place",
  );
  assert.equal(tableRows(lines).length, 15, "only BasicFlow's table");
  assert.deepEqual(lines.slice(basic + 16), [
    "    AddressCheck  1/1 steps · 1/1 tools · checklist 4 ✓",
    "  RelayFlow       2/2 steps · 2/2 tools · checklist 13 ✓, 2 not in this run",
    ...WHERE,
  ]);
});

test("a child flow's point to add shows the child's own points under its line, and not its parent's table", () => {
  const checklist = sampleChecklist(BasicFlow, { AddressCheck: { "4": "missing" } });
  const lines = renderRunSummary(fixtureRun({ checklist }), { files: FILES });
  assert.ok(
    lines.includes("  BasicFlow       3/3 steps · 3/3 tools · checklist 13 ✓, 2 not in this run"),
    lines.join("\n"),
  );
  const child = lines.indexOf("    AddressCheck  1/1 steps · 1/1 tools · checklist 3 ✓, 1 ✗ to add");
  assert.ok(child > 0, lines.join("\n"));
  assert.deepEqual(tableRows(lines), lines.slice(child + 1, child + 5));
  assert.deepEqual(
    tableRows(lines).map((line) => line.slice(0, 19)),
    ["      ✗  4         ", "      ✓ steps      ", "      ✓ tools      ", "      ✓ transitions"],
  );
});

test("everyTable (flowcheck test --checklist) shows the table of every judged flow, each under its line", () => {
  const lines = renderRunSummary(fixtureRun(), { files: FILES, everyTable: true });
  assert.match(lines[2]!, /\(✓ proved, ✗ to add, – not applicable, \? not judged\):$/);
  const at = (line: string) => lines.findIndex((each) => each.startsWith(line));
  assert.deepEqual(
    [at("  BasicFlow "), at("    AddressCheck "), at("  RelayFlow "), lines.length - 2],
    [3, 3 + 16, 3 + 16 + 5, 3 + 16 + 5 + 16],
    "15 points under each flow, 4 under the child",
  );
  assert.equal(tableRows(lines).length, 15 + 4 + 15);
  assert.equal(lines[4], "    ✓  1          listed by GET /ai/flows                  proved: listed by GET /ai/flows");
});

test("a flow not judged says why on its line, even with everyTable; a flow with no checklist names what its scenarios never reached", () => {
  const unjudged = sampleUnjudged(BasicFlow, 2, 1);
  const coverage = { ...sampleCoverage(BasicFlow, 1), ...sampleCoverage(RelayFlow, 1) };
  coverage["RelayFlow"] = {
    ...coverage["RelayFlow"]!,
    steps: { GreetStep: true, FarewellStep: false },
    tools: { "GreetStep.go": ["advance"], "FarewellStep.finish": [] },
  };
  for (const everyTable of [false, true]) {
    assert.deepEqual(
      renderRunSummary(fixtureRun({ checklist: unjudged, coverage }), { files: FILES, everyTable }).slice(3, -2),
      [
        "  BasicFlow       3/3 steps · 3/3 tools · checklist not judged, 1 of its 2 scenario files did not run here: run them all (npm run test:flows)",
        "    AddressCheck  1/1 steps · 1/1 tools · checklist not judged",
        "  RelayFlow       1/2 steps · 1/2 tools · steps never reached: FarewellStep · tools never called: FarewellStep.finish",
      ],
    );
  }
});

test("a registered flow the run did not play is a line saying so; a run of no flow ends with its totals and its files", () => {
  const checklist = [...sampleChecklist(BasicFlow), ...sampleUnjudged(RelayFlow, 1, 0)];
  const lines = renderRunSummary(fixtureRun({ checklist, coverage: sampleCoverage(BasicFlow, 1) }), { files: FILES });
  assert.equal(
    lines[5],
    "  RelayFlow       not played · checklist not judged, 1 of its 1 scenario files did not run here: run them all (npm run test:flows)",
  );
  const none = sampleRunResults([]);
  assert.deepEqual(renderRunSummary(none, { files: { results: FILES.results, report: FILES.report } }), [
    "",
    "0 conversations: 0 passed, 0 failed, 0 skipped; turns 0 passed, 0 failed, 0 skipped; judge none graded; tokens 0",
    "results: test/.tmp/run-results.json",
    "report:  test/.tmp/report.html",
  ]);
});

test("a run with simulated users ends with each simulated scenario's successes over its tries and pass^k at 1, 2 and n, flaky ones marked, then the run's pass^k", () => {
  const conversations = [
    ...(["passed", "failed", "passed", "passed", "failed"] as const).map((outcome, index) =>
      sampleSimulated("booking", { index: index + 1, of: 5 }, outcome),
    ),
    sampleSimulated("refund-request", { index: 1, of: 1 }, "passed"),
  ];
  const results = sampleRunResults(conversations, { simulated: simulatedSummary(conversations)! });
  const lines = renderRunSummary(results, { files: FILES });
  assert.match(lines[1]!, /; tokens 150 \(simulated users 60\)$/);
  assert.deepEqual(lines.slice(2, -2), [
    "simulated users: successes over tries and pass^k, the chance k tries all succeed:",
    "  booking         3/5 succeeded · flaky  pass^1 60%, pass^2 30%, pass^5 0%",
    "  refund-request  1/1 succeeded  pass^1 100%",
    "  run             pass^1 80%, pass^2 30%, pass^5 0%",
  ]);
});

test("a run without simulated users prints no simulated block", () => {
  assert.ok(!renderRunSummary(fixtureRun(), { files: FILES }).some((line) => line.includes("simulated")));
});
