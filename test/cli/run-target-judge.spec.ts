import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import type { CassetteFile } from "../../src/testing/cassette/cassette-file.ts";
import type { JudgeMaterial } from "../../src/testing/judge/judge-prompt.ts";
import type { RunResults } from "../../src/testing/report/run-results.ts";
import { type ChildRun, runFlowcheck } from "../support/child-run.ts";
import { startFakeOpenAI, type CompletionRequest, type FakeOpenAI } from "../support/fake-openai-server.ts";
import { sessionChatEntry, startSessionChatServer, type SessionChatServer } from "../support/session-chat-server.ts";
import { playUser, userReply } from "../support/fake-simulated-user.ts";
import { tempDir } from "../support/temp-path.ts";

// The LLM judge and its cassettes on an http target, as on a flow of our engine: the judge, served
// by a fake OpenAI-compatible server on 127.0.0.1, grades the target's answers, and FLOW_MODEL=record
// tapes its calls next to the scenario for FLOW_MODEL=replay to answer with no provider at all.

const LOW = "The assistant should offer a refund.";
const LOW_VERDICT = {
  pass: true,
  score: 0.4,
  reason: "No refund is offered.",
  missing: ["a refund"],
  contradictions: [],
};

/** Two judged turns of the contact flow: the first meets its expectation, the second scores below its bar. */
const JUDGED = {
  flowName: "ContactFlow",
  turns: [
    {
      label: "asks for the name again",
      input: "R2D2",
      expectedActiveStep: "NameStep",
      expectedResponse: "The assistant should ask for the user's name.",
      minScore: 0.8,
    },
    { label: "takes the name", input: "Ada Lovelace", expectedActiveStep: "EmailStep", expectedResponse: LOW },
  ],
};

let chat: SessionChatServer;
let dir: { path: string; remove(): void };

before(async () => {
  chat = await startSessionChatServer();
  dir = await tempDir("run-target-judge");
  const support = { ...sessionChatEntry(chat.url), headers: { authorization: "Bearer ${SUPPORT_TOKEN}" } };
  writeFileSync(join(dir.path, "flowcheck.config.json"), JSON.stringify({ targets: { support } }));
});

after(async () => {
  dir?.remove();
  await chat?.close();
});

/** A fake judge that passes every expectation but LOW, which it scores below the default bar. */
async function fakeJudge(): Promise<FakeOpenAI> {
  const fake = await startFakeOpenAI([]);
  fake.answer = (request) =>
    (JSON.parse(request.messages[1]!.content!) as JudgeMaterial).expectation === LOW
      ? { judge: JSON.stringify(LOW_VERDICT) }
      : undefined;
  return fake;
}

/** `scenario` as `<folder>/<name>.scenario.json` in the project, and the line of each turn's label. */
function writeScenario(folder: string, name: string, scenario: object): { path: string; lines: number[] } {
  mkdirSync(join(dir.path, folder), { recursive: true });
  const text = JSON.stringify(scenario, null, 2);
  writeFileSync(join(dir.path, folder, `${name}.scenario.json`), text);
  const lines = text.split("\n");
  return {
    path: `${folder}/${name}.scenario.json`,
    lines: JUDGED.turns.map((turn) => lines.findIndex((line) => line.includes(`"label": "${turn.label}"`)) + 1),
  };
}

function runSpecs(path: string, env: Record<string, string>, options: string[] = []): Promise<ChildRun> {
  return runFlowcheck(
    ["test", ...options, path],
    { FLOW_TARGET: "support", SUPPORT_TOKEN: "fixture-token", JUDGE: "required", ...env },
    undefined,
    dir.path,
  );
}

function resultsOf(): RunResults {
  return JSON.parse(readFileSync(join(dir.path, "test", ".tmp", "run-results.json"), "utf8")) as RunResults;
}

/** Each turn's judge check of the run's one conversation, as [outcome, verdict]. */
function verdictsOf(results: RunResults) {
  return results.conversations[0]!.turns.map((turn) => {
    const judged = turn.checks.find((check) => check.contract === "judge");
    return [judged?.outcome, judged?.verdict];
  });
}

function judged(requests: CompletionRequest[]): JudgeMaterial[] {
  return requests.map((request) => JSON.parse(request.messages[1]!.content!) as JudgeMaterial);
}

test("the judge grades an http target's answers: a good verdict passes, a low score fails that turn's judge test at its line, each verdict in the results and the transcript", async () => {
  const fake = await fakeJudge();
  const { path, lines } = writeScenario("judged", "contact", JUDGED);
  const run = await runSpecs(path, { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: fake.baseURL }).finally(() =>
    fake.close(),
  );
  const output = run.stdout + run.stderr;
  assert.equal(run.code, 1, output);
  assert.match(output, /✔ 1\. asks for the name again · judge/);
  assert.match(output, /✖ 2\. takes the name · judge/);
  assert.match(
    output,
    new RegExp(`judged/contact\\.scenario\\.json:${lines[1]}: turn 2 'takes the name'.*score 0\\.4 is below 0\\.75`),
  );
  assert.match(output, /judge: 2 calls made, 0 cached, 0 replayed/);

  // The judge was given the target's own answers, the first turn as the second's conversation.
  assert.deepEqual(judged(fake.requests), [
    {
      conversation: [],
      latestUserMessage: "R2D2",
      answer: "Please tell me your name.",
      expectation: JUDGED.turns[0]!.expectedResponse,
    },
    {
      conversation: [{ user: "R2D2", assistant: "Please tell me your name." }],
      latestUserMessage: "Ada Lovelace",
      answer: "Thanks, Ada Lovelace. What is your email?",
      expectation: LOW,
    },
  ]);

  const results = resultsOf();
  const [conversation] = results.conversations;
  assert.equal(conversation?.outcome, "failed");
  // The contracts held on both turns; the verdict alone failed the second.
  assert.deepEqual(
    conversation!.turns.map((turn) => turn.outcome),
    ["passed", "passed"],
  );
  assert.deepEqual(verdictsOf(results), [
    [
      "passed",
      {
        pass: true,
        score: 0.9,
        reason: "The answer does what was expected.",
        missing: [],
        contradictions: [],
        minScore: 0.8,
      },
    ],
    ["failed", { ...LOW_VERDICT, minScore: 0.75 }],
  ]);
  const transcripts = readdirSync(join(dir.path, "test", ".tmp")).filter((file) => file.includes("semantic-failure"));
  assert.equal(transcripts.length, 1, transcripts.join(", "));
  const transcript = readFileSync(join(dir.path, "test", ".tmp", transcripts[0]!), "utf8");
  assert.match(transcript, /No refund is offered\./);
  assert.match(transcript, /Thanks, Ada Lovelace\. What is your email\?/);
});

test("FLOW_MODEL=record tapes an http target's judge calls next to its scenario; replay, with the judge stopped, makes no request and gives the same verdicts", async () => {
  const { path } = writeScenario("taped", "contact", JUDGED);
  const cassette = join(dir.path, "taped", "contact.cassette.json");
  const recorder = await fakeJudge();
  const recording = await runSpecs(path, {
    FLOW_MODEL: "record",
    OPENAI_API_KEY: "test-key",
    OPENAI_BASE_URL: recorder.baseURL,
  }).finally(() => recorder.close());
  assert.equal(recording.code, 1, "the low verdict fails the recording run too");
  const recorded = verdictsOf(resultsOf());
  assert.equal(recorder.requests.length, 2);
  const tape = JSON.parse(readFileSync(cassette, "utf8")) as CassetteFile;
  assert.equal(tape.scenario, "contact");
  assert.deepEqual(
    tape.calls.map((call) => [call.position, call.turn, call.label, call.kind]),
    [
      [1, 1, "asks for the name again", "judge"],
      [2, 2, "takes the name", "judge"],
    ],
  );

  // The recorder is closed: any judge request of the replay would fail its verdict.
  const replay = await runSpecs(path, { FLOW_MODEL: "replay", OPENAI_BASE_URL: recorder.baseURL });
  const output = replay.stdout + replay.stderr;
  assert.equal(replay.code, 1, output);
  assert.equal(recorder.requests.length, 2, "the replay sent the judge nothing");
  assert.match(output, /judge: 0 calls made, 0 cached, 2 replayed/);
  const results = resultsOf();
  assert.deepEqual(verdictsOf(results), recorded);
  const final = results.conversations[0]!.final;
  assert.equal(final?.checks.find((check) => check.name === "every recorded call made")?.outcome, "passed");
});

test("FLOW_MODEL=record tapes the simulated user of an http target's scenario; replay, with the provider stopped, plays it back and passes on the stored state", async () => {
  const { path } = writeScenario("simulated", "contact", {
    flowName: "ContactFlow",
    user: { persona: "Ada Lovelace", goal: "Leave her contact details", maxTurns: 4 },
    success: { finalState: { NameStep: { name: "Ada Lovelace" }, EmailStep: { email: "ada@example.org" } } },
  });
  const recorder = await startFakeOpenAI([]);
  playUser(recorder, ({ conversation }) => {
    const last = conversation.findLast((entry) => entry.from === "assistant")?.text ?? "";
    if (/We are done/.test(last)) return userReply("", true, "the details are saved");
    return userReply(/email/.test(last) ? "ada@example.org" : "Ada Lovelace");
  });
  const recording = await runSpecs(path, {
    FLOW_MODEL: "record",
    OPENAI_API_KEY: "test-key",
    OPENAI_BASE_URL: recorder.baseURL,
  }).finally(() => recorder.close());
  assert.equal(recording.code, 0, recording.stdout + recording.stderr);
  const tape = JSON.parse(readFileSync(join(dir.path, "simulated", "contact.cassette.json"), "utf8")) as CassetteFile;
  assert.ok(tape.calls.length >= 2, JSON.stringify(tape.calls));
  assert.equal(tape.calls.length, recorder.requests.length);
  assert.deepEqual(new Set(tape.calls.map((call) => call.kind)), new Set(["user"]));

  const replay = await runSpecs(path, { FLOW_MODEL: "replay", OPENAI_BASE_URL: recorder.baseURL });
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
  const [conversation] = resultsOf().conversations;
  const final = conversation!.final;
  assert.equal(final?.outcome, "passed");
  assert.equal(conversation!.simulation?.player, "replay");
  assert.equal(final?.checks.find((check) => check.name === "every recorded call made")?.outcome, "passed");
});

test("FLOW_MODEL=replay of an http target's judged scenario with no cassette fails at start naming the missing file; one no judge grades needs none", async () => {
  const { path } = writeScenario("untaped", "contact", JUDGED);
  const run = await runSpecs(path, { FLOW_MODEL: "replay" });
  const output = run.stdout + run.stderr;
  assert.equal(run.code, 1, output);
  assert.match(output, /cassette_missing/);
  assert.match(output, /untaped\/contact\.cassette\.json does not exist/);

  const plain = {
    flowName: "ContactFlow",
    turns: [{ label: "takes the name", input: "Ada Lovelace", expectedActiveStep: "EmailStep" }],
  };
  const unjudged = writeScenario("unjudged", "contact", plain);
  const recorded = await runSpecs(unjudged.path, { FLOW_MODEL: "record", OPENAI_API_KEY: "test-key" });
  assert.equal(recorded.code, 0, recorded.stdout + recorded.stderr);
  assert.equal(existsSync(join(dir.path, "unjudged", "contact.cassette.json")), false);
  const replayed = await runSpecs(unjudged.path, { FLOW_MODEL: "replay" });
  assert.equal(replayed.code, 0, replayed.stdout + replayed.stderr);
});

test("FLOW_MODEL=record with --repeat 2 on an http target's judged scenario is refused, naming why, as on our engine's flows: every run would write the one cassette", async () => {
  const { path } = writeScenario("repeated", "contact", JUDGED);
  const fake = await fakeJudge();
  const run = await runSpecs(
    path,
    { FLOW_MODEL: "record", OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: fake.baseURL },
    ["--repeat", "2"],
  ).finally(() => fake.close());
  const output = run.stdout + run.stderr;
  assert.equal(run.code, 1, output);
  assert.match(output, /✖ ContactFlow: contact × 2 is recorded once/);
  assert.match(output, /ContactFlow records its cassette \(FLOW_MODEL=record\), and repeat: 2 would write it 2 times/);
  assert.equal(fake.requests.length, 0, "nothing was played");
  assert.equal(existsSync(join(dir.path, "repeated", "contact.cassette.json")), false);
});
