import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { answerSha256, type JudgeLabel, writeJudgeLabels } from "../../src/testing/judge/judge-labels.ts";
import { judgedTurns } from "../../src/testing/report/label-drafts.ts";
import { runFlowcheck } from "../support/child-run.ts";
import { judgedRunResults, writeJudgedRun } from "../support/judged-run-results.ts";
import { tempDir } from "../support/temp-path.ts";

// flowcheck judge label --import in a child process: a file downloaded from the report merged into
// the labels file, checked against the run's results (test/support/judged-run-results.ts).

let dir: { path: string; remove(): void };
let results: string;
before(async () => {
  dir = await tempDir("judge-label-import");
  results = writeJudgedRun(dir.path);
});
after(() => dir?.remove());

const [askDate, quotePrice, , refund] = judgedTurns(judgedRunResults()).map((judged) => judged.draft);

function label(
  draft: typeof askDate,
  human: JudgeLabel["human"],
  labelledAt: string,
  extra: Partial<JudgeLabel> = {},
): JudgeLabel {
  return { ...draft!, human, labelledAt, ...extra };
}

test("a downloaded file merges: a new label added, a disagreeing newer one replacing the old with the conflict named, a label of another answer set aside, one of a turn the run lacks merged, saying so; merged again, nothing changes", async () => {
  const labels = join(dir.path, "merge", "judge-labels.json");
  writeJudgeLabels(labels, [label(askDate, "pass", "2026-12-01T10:00:00.000Z")]);
  const otherAnswer = "Refunds take a week.";
  const downloaded = join(dir.path, "merge", "downloaded.json");
  const gone = {
    ...label(askDate, "fail", "2026-12-02T09:00:00.000Z"),
    file: "journeys/gone.scenario.json",
    turn: "says goodbye",
  };
  writeJudgeLabels(downloaded, [
    label(askDate, "fail", "2026-12-02T10:00:00.000Z", { note: "it asked before" }),
    label(quotePrice, "pass", "2026-12-02T10:01:00.000Z"),
    label(refund, "fail", "2026-12-02T10:02:00.000Z", { answer: otherAnswer, answerSha256: answerSha256(otherAnswer) }),
    gone,
  ]);
  const run = await runFlowcheck(["judge", "label", results, "--import", downloaded, "--labels", labels]);
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    run.stdout,
    /downloaded\.json into .*judge-labels\.json: 2 added, 1 replaced, 0 there already, 1 set aside \(3 in the file\)\n/,
  );
  assert.match(
    run.stdout,
    /conflict: journeys\/booking\.scenario\.json · turn "asks the date": kept fail "it asked before" \(2026-12-02T10:00:00\.000Z\), dropped pass \(2026-12-01T10:00:00\.000Z\)\n/,
  );
  const setAside = new RegExp(
    `set aside: journeys/refund\\.scenario\\.json · turn "explains refunds": the label is of answer ${answerSha256(otherAnswer).slice(0, 8)}, ` +
      `but .*run-results\\.json answered it ${refund!.answerSha256.slice(0, 8)}; label it again from this run's report, or pass the results it came from`,
  );
  assert.match(run.stdout, setAside);
  assert.match(run.stdout, /not in .*run-results\.json: journeys\/gone\.scenario\.json · turn "says goodbye": merged/);
  const merged = (JSON.parse(readFileSync(labels, "utf8")) as { labels: JudgeLabel[] }).labels;
  assert.deepEqual(
    merged.map(({ turn, human, note }) => ({ turn, human, note })),
    [
      { turn: "asks the date", human: "fail", note: "it asked before" },
      { turn: "quotes the price", human: "pass", note: undefined },
      { turn: "says goodbye", human: "fail", note: undefined },
    ],
  );
  const written = readFileSync(labels);
  const again = await runFlowcheck(["judge", "label", results, "--import", downloaded, "--labels", labels]);
  assert.match(again.stdout, /: 0 added, 0 replaced, 3 there already, 1 set aside \(3 in the file\)\n/);
  assert.deepEqual(readFileSync(labels), written);
});

test("a downloaded file that is not a labels file is judge_labels_invalid with its JSON path, and the labels file is left byte for byte", async () => {
  const folder = join(dir.path, "invalid");
  mkdirSync(folder);
  const labels = join(folder, "judge-labels.json");
  writeJudgeLabels(labels, [label(askDate, "pass", "2026-12-01T10:00:00.000Z")]);
  const before = readFileSync(labels);
  const downloaded = join(folder, "downloaded.json");
  writeFileSync(downloaded, JSON.stringify({ labels: [{ ...label(quotePrice, "pass", "x"), human: "right" }] }));
  const run = await runFlowcheck(["judge", "label", results, "--import", downloaded, "--labels", labels]);
  assert.equal(run.code, 1);
  assert.match(run.stderr, /judge_labels_invalid: .*downloaded\.json is not a judge labels file/);
  assert.match(run.stderr, /labels\[0\]\.human/);
  assert.deepEqual(readFileSync(labels), before);
  const missing = await runFlowcheck([
    "judge",
    "label",
    results,
    "--import",
    join(folder, "nowhere.json"),
    "--labels",
    labels,
  ]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /judge_labels_invalid: .*nowhere\.json: no such file/);
  assert.deepEqual(readFileSync(labels), before);
});
