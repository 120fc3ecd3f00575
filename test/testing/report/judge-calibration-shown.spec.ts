import assert from "node:assert/strict";
import { test } from "node:test";
import { DEFAULT_JUDGE_CALIBRATION } from "../../../src/testing/judge/judge-calibration-file.ts";
import { reportHeader } from "../../../src/testing/report/html/report-header.ts";
import { newestJudgeCalibration } from "../../../src/testing/report/judge-calibration-headline.ts";
import { renderRunSummary } from "../../../src/testing/report/render-run-summary.ts";
import { renderSummary } from "../../../src/testing/report/render-summary.ts";
import type { JudgeCalibrationHeadline, RunResults } from "../../../src/testing/report/run-results.ts";
import { BasicFlow } from "../../fixtures/flows/index.ts";
import { sampleCoverage } from "../../support/sample-checklist.ts";
import { sampleConversation, sampleRunResults, sampleTurn } from "../../support/sample-run-results.ts";

const FILES = { results: "test/.tmp/run-results.json", report: "test/.tmp/report.html" };

/** Written three days and some hours before sampleRunResults' run began (2026-12-01T10:00Z). */
const CALIBRATION: JudgeCalibrationHeadline = {
  file: DEFAULT_JUDGE_CALIBRATION,
  writtenAt: "2026-11-28T02:30:00.000Z",
  labels: 12,
  agreement: 11 / 12,
  kappa: 0.8285,
  bestMinScore: { minScore: 0.7, agreement: 1 },
  samples: 3,
};
const SENTENCE =
  "the judge agrees with people on 92% of 12 labels (κ 0.83), calibrated 2026-11-28 (3 days before this run)";
const NONE = `none committed (${DEFAULT_JUDGE_CALIBRATION}); label some of its verdicts, then run flowcheck judge calibrate --write`;

function judgedRun(fields: Partial<RunResults> = {}): RunResults {
  const judged = sampleTurn(1, { judge: { outcome: "passed", score: 0.9, minScore: 0.7 } });
  return sampleRunResults([sampleConversation("greets", [judged])], fields);
}

const unjudgedRun = () => sampleRunResults([sampleConversation("greets", [sampleTurn(1)])]);

/** The three places a run's judge is summarised, each as the text it shows. */
const renderings: [string, (results: RunResults) => string][] = [
  ["the job summary", (results) => renderSummary(results)],
  ["the terminal summary", (results) => renderRunSummary(results, { files: FILES }).join("\n")],
  ["the report's header", (results) => reportHeader(results)],
];

for (const [where, render] of renderings) {
  test(`${where} says how far the judge agrees with people, by the committed calibration, and how long before the run it was measured`, () => {
    assert.ok(render(judgedRun({ judgeCalibration: CALIBRATION })).includes(SENTENCE), render(judgedRun()));
  });

  test(`${where} of a run that judged turns without a committed calibration names flowcheck judge calibrate --write`, () => {
    assert.ok(render(judgedRun()).includes(NONE), render(judgedRun()));
  });

  test(`${where} of a run that judged nothing and has no calibration says nothing of one`, () => {
    assert.doesNotMatch(render(unjudgedRun()), /calibrat/);
  });
}

test("the job summary gives the calibration a paragraph of its own, under the run's totals", () => {
  const lines = renderSummary(judgedRun({ judgeCalibration: CALIBRATION })).split("\n");
  const at = lines.indexOf(`Judge calibration: ${SENTENCE}`);
  assert.ok(at > 0, lines.join("\n"));
  assert.equal(lines[at - 1], "");
  assert.match(lines[at - 2]!, / to 2026-12-01T10:00:04\.000Z$/);
});

test("the terminal summary's calibration line follows the flows' lines, before where the results are", () => {
  const results = judgedRun({ judgeCalibration: CALIBRATION, coverage: sampleCoverage(BasicFlow, 1) });
  const lines = renderRunSummary(results, { files: FILES });
  const at = lines.indexOf(`judge calibration: ${SENTENCE}`);
  assert.match(lines[1]!, /^1 conversation: /);
  assert.match(lines[at - 1]!, /^ +AddressCheck +1\/1 steps/, lines.join("\n"));
  assert.equal(lines[at + 1], "results: test/.tmp/run-results.json");
});

test("the report's header shows the calibration in a row under the judge's", () => {
  const header = reportHeader(judgedRun({ judgeCalibration: CALIBRATION }));
  assert.match(header, /<dt>judge<\/dt><dd>[^<]*<\/dd><dt>calibration<\/dt><dd>the judge agrees with people on 92%/);
});

test("κ of labels all of one verdict is shown as n/a, a calibration from the run's own day as that day, one written after the run began as such", () => {
  const oneClass = { ...CALIBRATION, kappa: null, agreement: 1, labels: 1, writtenAt: "2026-12-01T08:00:00.000Z" };
  assert.ok(
    renderSummary(judgedRun({ judgeCalibration: oneClass })).includes(
      "the judge agrees with people on 100% of 1 label (κ n/a (one class)), calibrated 2026-12-01 (the day of this run)",
    ),
  );
  const later = { ...CALIBRATION, writtenAt: "2026-12-02T01:00:00.000Z" };
  assert.match(renderSummary(judgedRun({ judgeCalibration: later })), /calibrated 2026-12-02 \(after this run began\)/);
});

test("of shards that read different calibrations, the newest is kept; of shards that read none, none", () => {
  const older = { ...CALIBRATION, writtenAt: "2026-11-20T00:00:00.000Z", agreement: 0.5 };
  assert.equal(newestJudgeCalibration([older, CALIBRATION, undefined]), CALIBRATION);
  assert.equal(newestJudgeCalibration([undefined, CALIBRATION, older]), CALIBRATION);
  assert.equal(newestJudgeCalibration([undefined, undefined]), undefined);
});
