import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { readJudgeLabels } from "../../src/testing/judge/judge-labels.ts";
import { childEnvironment, FLOWCHECK } from "../support/child-run.ts";
import { judgeLabelChild } from "../support/judge-label-child.ts";
import { LONG_ANSWER, writeJudgedRun } from "../support/judged-run-results.ts";
import { tempDir } from "../support/temp-path.ts";

// flowcheck judge label in a child process, in a project folder of its own holding a run's results
// with four judged turns (test/support/judged-run-results.ts), its answers piped to stdin.

let dir: { path: string; remove(): void };
before(async () => {
  dir = await tempDir("judge-label");
});
after(() => dir?.remove());

async function project(name: string): Promise<string> {
  const path = join(dir.path, name);
  mkdirSync(path);
  writeJudgedRun(path);
  return path;
}

const LABELS = join("scenarios", "judge-labels.json");

test("fed y, s, n, q it labels two turns, skips one and quits, and the labels file holds the two with the person's verdict; run again, it asks only what is left", async () => {
  const cwd = await project("y-s-n-q");
  const first = await judgeLabelChild(cwd, "y\ns\nn\nq\n");
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, /\[1\/4\] journeys\/booking\.scenario\.json:9 · turn "asks the date"\n/);
  assert.match(first.stdout, /  expected:  asks for the date of the stay\n/);
  assert.match(first.stdout, /  answer:    Thanks Ada\. Which date would you like\?\n/);
  assert.match(first.stdout, /  judge:     passed, score 0\.90 \(needs 0\.75\): it asks for the date\n/);
  assert.match(first.stdout, /\[3\/4\] journeys\/booking\.scenario\.json:5 · turn "greeting" \(case weekend\)\n/);
  assert.match(
    first.stdout,
    /\nquit: 2 labelled, 1 skipped, 1 left; the labels are in scenarios\/judge-labels\.json\n$/,
  );
  const labels = readJudgeLabels(join(cwd, LABELS));
  assert.deepEqual(
    labels.map(({ turn, caseLabel, human }) => ({ turn, caseLabel, human })),
    [
      { turn: "asks the date", caseLabel: undefined, human: "pass" },
      { turn: "greeting", caseLabel: "weekend", human: "fail" },
    ],
  );
  assert.equal(labels[0]!.input, "A room please");
  assert.deepEqual(labels[0]!.conversation, [{ user: "Hi, I am Ada", assistant: "Hello Ada! When do you arrive?" }]);

  const again = await judgeLabelChild(cwd, "q\n");
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /\[1\/2\] journeys\/booking\.scenario\.json:13 · turn "quotes the price"/);
  assert.doesNotMatch(again.stdout, /turn "asks the date"|turn "greeting"/);
  assert.match(again.stdout, /quit: 0 labelled, 0 skipped, 2 left/);
  assert.equal(readJudgeLabels(join(cwd, LABELS)).length, 2);
});

test("a line that is no answer is asked again, a note follows n, and the input ending half-way keeps what was labelled", async () => {
  const cwd = await project("eof");
  const run = await judgeLabelChild(cwd, "maybe\nn   the date was given already\n");
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /"maybe" is not an answer: type y, n, s or q/);
  assert.match(run.stdout, /the input ended: 1 labelled, 0 skipped, 3 left/);
  const [label, ...rest] = readJudgeLabels(join(cwd, LABELS));
  assert.deepEqual(rest, []);
  assert.equal(label?.human, "fail");
  assert.equal(label?.note, "the date was given already");
});

test("Ctrl-C while the second turn is asked ends the session, keeping the first label and saying what is left", async () => {
  const cwd = await project("ctrl-c");
  const child = spawn(process.execPath, [FLOWCHECK, "judge", "label"], { cwd, env: childEnvironment() });
  let stdout = "";
  const asked = new Promise<void>((resolve) =>
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      if (stdout.includes("[2/4]")) resolve();
    }),
  );
  child.stdin.write("y\n");
  await asked;
  child.kill("SIGINT");
  const [code] = await once(child, "close");
  assert.equal(code, 0, stdout);
  assert.match(stdout, /interrupted: 1 labelled, 0 skipped, 3 left/);
  assert.deepEqual(
    readJudgeLabels(join(cwd, LABELS)).map((label) => label.turn),
    ["asks the date"],
  );
});

test("a long answer is shown by its beginning and end, saying how much was left out", async () => {
  const cwd = await project("long");
  const run = await judgeLabelChild(cwd, "s\ns\ns\n");
  assert.match(run.stdout, /turn "explains refunds"/);
  const shown = /  answer:    (.*)\n/.exec(run.stdout.slice(run.stdout.indexOf('turn "explains refunds"')))?.[1] ?? "";
  assert.ok(shown.startsWith(LONG_ANSWER.slice(0, 100)) && shown.endsWith("The end."), shown);
  assert.match(shown, / … \[\d+ characters left out\] … /);
  assert.ok(shown.length < LONG_ANSWER.length, `${shown.length} of ${LONG_ANSWER.length}`);
  assert.match(run.stdout, /the input ended: 0 labelled, 3 skipped, 1 left/);
  assert.equal(existsSync(join(cwd, LABELS)), false);
});

test("no results, or a file that is not a run's results, is results_invalid and nothing is asked", async () => {
  const empty = join(dir.path, "empty");
  mkdirSync(empty);
  const none = await judgeLabelChild(empty, "y\n");
  assert.equal(none.code, 1);
  assert.match(none.stderr, /results_invalid: There is no test\/\.tmp\/run-results\.json: run flowcheck test first/);
  writeFileSync(join(empty, "not-results.json"), '{"labels": []}\n');
  const wrong = await judgeLabelChild(empty, "y\n", ["not-results.json"]);
  assert.equal(wrong.code, 1);
  assert.match(wrong.stderr, /results_invalid/);
  assert.doesNotMatch(wrong.stdout, /Is the judge right/);
});

test("a labels file that is not one is judge_labels_invalid with its JSON path, and stays as it was", async () => {
  const cwd = await project("bad-labels");
  mkdirSync(join(cwd, "scenarios"));
  const text = '{ "labels": [{ "file": "x", "turn": "t", "human": "maybe" }] }\n';
  writeFileSync(join(cwd, LABELS), text);
  const run = await judgeLabelChild(cwd, "y\n");
  assert.equal(run.code, 1);
  assert.match(run.stderr, /judge_labels_invalid/);
  assert.match(run.stderr, /labels\[0\]/);
  assert.equal(readFileSync(join(cwd, LABELS), "utf8"), text);
});

test("--help prints the usage and exits 0; two results files exit 2 with it", async () => {
  const help = await judgeLabelChild(dir.path, "", ["--help"]);
  assert.equal(help.code, 0);
  assert.match(
    help.stdout,
    /^Usage: flowcheck judge label \[<results>\] \[--labels <file>\] \[--import <downloaded labels file>\]/,
  );
  const two = await judgeLabelChild(dir.path, "", ["a.json", "b.json"]);
  assert.equal(two.code, 2);
  assert.match(two.stderr, /give one results file or folder/);
});
