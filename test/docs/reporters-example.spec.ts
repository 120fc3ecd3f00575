import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { after, before, test } from "node:test";
import { printedFiles } from "../support/markdown.ts";
import { JUDGED_SCENARIO, judgedProject, type JudgedProject } from "../support/judged-project.ts";

// docs/reference/reporters.md prints a complete reporter of a team's own. This writes that file, as printed,
// into a project of the spec's own and runs it with flowcheck test --reporter over a conversation
// with two judged turns, so that a change to the events that breaks the example breaks this test.

const ROOT = resolve(import.meta.dirname, "..", "..");
const GUIDE = readFileSync(join(ROOT, "docs", "reference", "reporters.md"), "utf8");
const [example] = [...printedFiles(GUIDE)];

let project: JudgedProject;

before(async () => {
  project = await judgedProject("reporters-example", { contact: JUDGED_SCENARIO });
});

after(() => project?.close());

test("docs/reference/reporters.md prints one reporter module, and the command line that runs it names that file", () => {
  assert.ok(example, "docs/reference/reporters.md prints no file under a **`path`** line");
  assert.match(GUIDE, new RegExp(`--reporter \\./${example[0].replaceAll(".", "\\.")}\\n`));
});

test("the documented reporter, run by flowcheck test --reporter, writes every turn's checks and every judge verdict", async () => {
  const [path, text] = example!;
  mkdirSync(dirname(join(project.path, path)), { recursive: true });
  writeFileSync(join(project.path, path), text);
  const run = await project.run(["--reporter", `./${path}`, "judged/contact.scenario.json"]);
  // The second turn's verdict scores below its bar: the run fails on it, and the reporter still writes.
  assert.equal(run.code, 1, run.stdout + run.stderr);
  assert.doesNotMatch(run.stderr, /reporter .* failed/);
  const written = JSON.parse(readFileSync(join(project.path, "test", ".tmp", "turn-checks.json"), "utf8")) as {
    turns: { conversation: string; number: number; checks: unknown[] }[];
    verdicts: { turn: number; outcome: string; score: number; minScore: number; reason: string }[];
  };
  const [conversation] = project.results().conversations;
  assert.deepEqual(
    written.turns.map((turn) => [turn.conversation, turn.number, turn.checks]),
    conversation!.turns.map((turn) => [conversation!.id, turn.number, turn.checks]),
  );
  assert.deepEqual(
    written.verdicts.map(({ turn, outcome, score, minScore, reason }) => ({ turn, outcome, score, minScore, reason })),
    conversation!.turns.map(({ number, judge }) => ({
      turn: number,
      outcome: judge?.outcome,
      score: judge?.score,
      minScore: judge?.minScore,
      reason: judge?.reason,
    })),
  );
  assert.deepEqual(
    written.verdicts.map((verdict) => verdict.outcome),
    ["passed", "failed"],
  );
});
