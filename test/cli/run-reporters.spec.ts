import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { after, before, test } from "node:test";
import type { RunEvent } from "../../src/testing/report/run-event.ts";
import { reduceRunResults } from "../../src/testing/report/run-results-reducer.ts";
import type { RunResults } from "../../src/testing/report/run-results.ts";
import type { ChildRun } from "../support/child-run.ts";
import { JUDGED_SCENARIO, judgedProject, SECRET_TOKEN, type JudgedProject } from "../support/judged-project.ts";

// flowcheck test's reporters over the run's events, in child runs of a project of the spec's own: a
// chat API target whose answers echo the secret header it is sent, and a fake judge.

const REPORTERS = resolve(import.meta.dirname, "..", "fixtures", "reporters");
const reporter = (name: string) => join(REPORTERS, `${name}.ts`);

/** A credential-named variable whose value the target happens to say in its first answer. */
const SECRET_VARIABLE = "SUPPORT_REPLY_TOKEN";
const ECHOED_SECRET = "tell me your name";

let project: JudgedProject;
/** The judged conversation's run, every event recorded by a reporter module. */
let recorded: { run: ChildRun; text: string; events: RunEvent[]; results: RunResults };

before(async () => {
  project = await judgedProject("run-reporters", {
    contact: JUDGED_SCENARIO,
    "name-only": { ...JUDGED_SCENARIO, turns: [JUDGED_SCENARIO.turns[0]] },
  });
  const run = await project.run(["--reporter", reporter("record-events"), "judged/contact.scenario.json"], {
    [SECRET_VARIABLE]: ECHOED_SECRET,
  });
  const text = readFileSync(join(project.path, "test", ".tmp", "events.jsonl"), "utf8");
  const events = text
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as RunEvent);
  recorded = { run, text, events, results: project.results() };
});

after(() => project?.close());

test("a recorded run's events, replayed into the reducer, give exactly the run-results.json that run wrote", () => {
  assert.equal(recorded.run.code, 1, recorded.run.stdout + recorded.run.stderr);
  assert.deepEqual(reduceRunResults(recorded.events), recorded.results);
  const types = recorded.events.map((event) => event.type);
  assert.equal(types[0], "run:begin");
  assert.equal(types.at(-1), "run:end");
  assert.deepEqual(
    types.filter((type) => type !== "run:begin" && type !== "run:end"),
    ["conversation:begin", "turn", "judge", "turn", "judge", "final", "conversation:end"],
  );
});

test("the events carry every turn's checks and each judge verdict, score against its bar", () => {
  const verdicts = recorded.events.flatMap((event) => (event.type === "judge" ? [event.data] : []));
  assert.deepEqual(
    verdicts.map(({ turn, outcome, score, minScore }) => ({ turn, outcome, score, minScore })),
    [
      { turn: 1, outcome: "passed", score: 0.9, minScore: 0.75 },
      { turn: 2, outcome: "failed", score: 0.4, minScore: 0.75 },
    ],
  );
  const turns = recorded.events.flatMap((event) => (event.type === "turn" ? [event.data] : []));
  assert.deepEqual(
    turns.map((turn) => turn.checks),
    recorded.results.conversations[0]!.turns.map((turn) => turn.checks),
  );
});

test("a secret header's value never reaches a reporter, though the target echoed it into every answer", () => {
  const sent = project.chat.requests.map((request) => request.headers.authorization);
  assert.ok(sent.includes(`Bearer ${SECRET_TOKEN}`), "the target was sent the secret");
  assert.equal(recorded.text.includes(SECRET_TOKEN), false, "an event holds the secret");
  const answers = recorded.events.flatMap((event) => (event.type === "turn" ? [event.data.answer] : []));
  assert.ok(
    answers.every((answer) => answer?.endsWith("(you sent [redacted])")),
    `answers: ${JSON.stringify(answers)}`,
  );
});

test("a credential-named variable's value never reaches a reporter either, wherever it was said", () => {
  assert.equal(recorded.text.includes(ECHOED_SECRET), false, `an event holds ${SECRET_VARIABLE}'s value`);
  const [first] = recorded.events.flatMap((event) => (event.type === "turn" ? [event.data.answer] : []));
  assert.match(first ?? "", /^Please \[redacted\]\./);
});

test("a reporter that throws, one that exports no default and one that does not load are each named; the others finish, and the run exits 1", async () => {
  const run = await project.run([
    `--reporter=${reporter("throws")},${reporter("no-default")},${reporter("missing")}`,
    "--reporter",
    "junit=out/junit.xml",
    "judged/name-only.scenario.json",
  ]);
  assert.equal(run.code, 1, run.stdout + run.stderr);
  const failed = run.stderr.split("\n").filter((line) => line.startsWith("flowcheck test: reporter "));
  assert.deepEqual(
    failed.map((line) => line.replace(/: reporter (\S+) failed: .*$/, ": $1")),
    [reporter("throws"), reporter("no-default"), reporter("missing")].map((path) => `flowcheck test: ${path}`),
  );
  assert.match(failed[0]!, /failed: the chat service is down \(at run:begin\)$/);
  assert.match(failed[1]!, /failed: its module exports no default function/);
  // The run itself passed: the results, the summary and JUnit are all there.
  assert.equal(project.results().totals.conversations.passed, 1);
  assert.match(run.stdout, /^1 conversation: 1 passed/m);
  assert.match(run.stdout, /^junit: {3}out\/junit\.xml$/m);
  assert.match(readFileSync(join(project.path, "out", "junit.xml"), "utf8"), /<testsuite /);
});

test("the same passing run without a failing reporter exits 0", async () => {
  const run = await project.run(["--reporter", "junit", "judged/name-only.scenario.json"]);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.ok(
    existsSync(join(project.path, "test", ".tmp", "junit.xml")),
    "junit with no destination writes test/.tmp/junit.xml",
  );
});

test("an unknown reporter name is a usage error, exit 2, naming the reporters there are, before anything plays", async () => {
  const run = await project.run(["--reporter", "slack", "judged/name-only.scenario.json"]);
  assert.equal(run.code, 2, run.stdout + run.stderr);
  assert.match(
    run.stderr,
    /flowcheck test: --reporter slack is not a reporter: give summary, results, transcripts, html, junit, github, checklist, or a module's path/,
  );
  assert.equal(project.chat.requests.filter((request) => request.url === "/chat").length, 4, "nothing more played");
});
