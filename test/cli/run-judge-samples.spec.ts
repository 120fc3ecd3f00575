import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import type { CassetteFile } from "../../src/testing/cassette/cassette-file.ts";
import type { JudgeMaterial } from "../../src/testing/judge/judge-prompt.ts";
import type { RunResults } from "../../src/testing/report/run-results.ts";
import { type ChildRun, runFlowcheck } from "../support/child-run.ts";
import { startFakeOpenAI, type FakeOpenAI } from "../support/fake-openai-server.ts";
import { sessionChatEntry, startSessionChatServer, type SessionChatServer } from "../support/session-chat-server.ts";
import { tempDir } from "../support/temp-path.ts";

// JUDGE_SAMPLES in a real flowcheck test run: an http target answers the turns, and a judge on
// 127.0.0.1 that this spec starts answers each request with the verdict set here for that
// expectation's n-th sample. The first turn's second sample fails it, so its verdict is unstable.

const ASKS = "The assistant should ask for the user's name.";
const TAKES = "The assistant should thank the user and ask for an email.";

function verdict(pass: boolean, score: number, reason: string) {
  return { pass, score, reason, missing: [], contradictions: [] };
}

/** Each expectation's samples, in the order the judge is asked. */
const SAMPLES: Record<string, ReturnType<typeof verdict>[]> = {
  [ASKS]: [
    verdict(true, 0.9, "Asks for the name."),
    verdict(true, 0.4, "Asks, but not clearly for a name."),
    verdict(true, 0.8, "Asks for the name again."),
  ],
  [TAKES]: [verdict(true, 0.9, "Thanks and asks."), verdict(true, 0.95, "Good."), verdict(true, 0.85, "Fine.")],
};

const SCENARIO = {
  flowName: "ContactFlow",
  turns: [
    { label: "asks for the name again", input: "R2D2", expectedActiveStep: "NameStep", expectedResponse: ASKS },
    { label: "takes the name", input: "Ada Lovelace", expectedActiveStep: "EmailStep", expectedResponse: TAKES },
  ],
};

let chat: SessionChatServer;
let dir: { path: string; remove(): void };

before(async () => {
  chat = await startSessionChatServer();
  dir = await tempDir("run-judge-samples");
  const support = { ...sessionChatEntry(chat.url), headers: { authorization: "Bearer ${SUPPORT_TOKEN}" } };
  writeFileSync(join(dir.path, "flowcheck.config.json"), JSON.stringify({ targets: { support } }));
});

after(async () => {
  dir?.remove();
  await chat?.close();
});

/** `use` with a judge answering each expectation's samples in turn, closed after it, failed or not. */
async function withJudge(use: (fake: FakeOpenAI) => Promise<void>): Promise<void> {
  const fake = await sampledJudge();
  try {
    await use(fake);
  } finally {
    await fake.close();
  }
}

/** A judge answering each expectation's samples in turn, starting over when a new run asks again. */
async function sampledJudge(): Promise<FakeOpenAI> {
  const fake = await startFakeOpenAI([]);
  const asked = new Map<string, number>();
  fake.answer = (request) => {
    const { expectation } = JSON.parse(request.messages[1]!.content!) as JudgeMaterial;
    const samples = SAMPLES[expectation]!;
    const n = asked.get(expectation) ?? 0;
    asked.set(expectation, n + 1);
    return { judge: JSON.stringify(samples[n % samples.length]) };
  };
  return fake;
}

/** The scenario in `<folder>/contact.scenario.json`, and the line of its first turn's label. */
function writeScenario(folder: string): { path: string; line: number } {
  mkdirSync(join(dir.path, folder), { recursive: true });
  const text = JSON.stringify(SCENARIO, null, 2);
  writeFileSync(join(dir.path, folder, "contact.scenario.json"), text);
  const line = text.split("\n").findIndex((each) => each.includes('"label": "asks for the name again"')) + 1;
  return { path: `${folder}/contact.scenario.json`, line };
}

function run(path: string, env: Record<string, string>): Promise<ChildRun> {
  return runFlowcheck(
    ["test", path],
    { FLOW_TARGET: "support", SUPPORT_TOKEN: "fixture-token", JUDGE: "required", ...env },
    undefined,
    dir.path,
  );
}

function live(fake: FakeOpenAI): Record<string, string> {
  return { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: fake.baseURL };
}

function resultsOf(): RunResults {
  return JSON.parse(readFileSync(join(dir.path, "test", ".tmp", "run-results.json"), "utf8")) as RunResults;
}

/** Each turn's judge as the results give it: outcome, median score, samples' scores, unstable. */
function judgesOf(results: RunResults) {
  return results.conversations[0]!.turns.map((turn) => [
    turn.judge?.outcome,
    turn.judge?.score,
    turn.judge?.samples?.map((sample) => sample.score),
    turn.judge?.unstable,
  ]);
}

const EXPECTED_JUDGES = [
  ["passed", 0.8, [0.9, 0.4, 0.8], true],
  ["passed", 0.9, [0.9, 0.95, 0.85], false],
];

test("JUDGE_SAMPLES=3: each turn is three requests, its verdict their majority and median, its samples and unstable in the results, the test's output, both summaries and the report; a second run asks three times again", async () => {
  const { path, line } = writeScenario("sampled");
  const summary = join(dir.path, "step-summary.md");
  await withJudge(async (fake) => {
    const env = { ...live(fake), JUDGE_SAMPLES: "3", GITHUB_STEP_SUMMARY: summary };
    const first = await run(path, env);
    const output = first.stdout + first.stderr;
    assert.equal(first.code, 0, output);
    assert.equal(fake.requests.length, 6);
    const results = resultsOf();
    assert.deepEqual(judgesOf(results), EXPECTED_JUDGES);
    assert.deepEqual(
      results.conversations[0]!.turns[0]!.judge?.samples,
      SAMPLES[ASKS]!.map(({ pass, score, reason }) => ({ pass, score, reason })),
    );
    assert.equal(results.totals.judge.unstable, 1);
    assert.equal(results.totals.judge.passed, 2);

    assert.match(output, /unstable: 2 of 3 samples passed, scores 0\.9 0\.4 0\.8/);
    assert.match(output, /judge: 6 calls made, 0 cached, 0 replayed/);
    const at = `sampled/contact\\.scenario\\.json:${line} turn 1 'asks for the name again'`;
    assert.match(output, /judge: 1 unstable verdict, the samples disagreed/);
    assert.match(output, new RegExp(`${at}: 2 of 3 samples passed, scores 0\\.9 0\\.4 0\\.8; passed`));
    const markdown = readFileSync(summary, "utf8");
    assert.match(markdown, /### Unstable verdicts/);
    assert.match(markdown, new RegExp(`- ${at}: 2 of 3 samples passed, scores 0\\.9 0\\.4 0\\.8; passed`));
    const page = readFileSync(join(dir.path, "test", ".tmp", "report.html"), "utf8");
    assert.match(page, /<span class="chip unstable">1 unstable<\/span>/);
    assert.match(
      page,
      /<span class="chip unstable">unstable<\/span> <span class="facts">2 of 3 samples passed, scores 0\.9 0\.4 0\.8<\/span>/,
    );
    assert.match(
      page,
      /<li class="fail">✗ 0\.40 <span class="sample-reason">Asks, but not clearly for a name\.<\/span><\/li>/,
    );

    const second = await run(path, env);
    assert.equal(second.code, 0, second.stdout + second.stderr);
    assert.equal(fake.requests.length, 12, "samples are never cached: the second run asked 6 times again");
    assert.deepEqual(judgesOf(resultsOf()), EXPECTED_JUDGES);
  });
});

test("JUDGE_UNSTABLE=fail fails the unstable turn's judge test at its line, saying the samples disagreed, and the run exits 1", async () => {
  const { path, line } = writeScenario("strict");
  await withJudge(async (fake) => {
    const result = await run(path, { ...live(fake), JUDGE_SAMPLES: "3", JUDGE_UNSTABLE: "fail" });
    const output = result.stdout + result.stderr;
    assert.equal(result.code, 1, output);
    assert.match(output, /✖ 1\. asks for the name again · judge/);
    assert.match(output, /✔ 2\. takes the name · judge/);
    assert.match(
      output,
      new RegExp(
        `strict/contact\\.scenario\\.json:${line}: turn 1 'asks for the name again': the judge's samples disagreed \\(2 of 3 samples passed, scores 0\\.9 0\\.4 0\\.8, median 0\\.8; the majority passed it\\), and JUDGE_UNSTABLE=fail fails an unstable verdict; JUDGE_UNSTABLE=report only reports it`,
      ),
    );
    assert.deepEqual(
      resultsOf().conversations[0]!.turns.map((turn) => turn.judge?.outcome),
      ["failed", "passed"],
    );
  });
});

test("JUDGE_SAMPLES=2 is refused before anything plays, naming the value and what to set", async () => {
  const { path } = writeScenario("even");
  const sent = chat.requests.length;
  await withJudge(async (fake) => {
    const result = await run(path, { ...live(fake), JUDGE_SAMPLES: "2" });
    const output = result.stdout + result.stderr;
    assert.equal(result.code, 2, output);
    assert.match(output, /config_invalid/);
    assert.match(
      output,
      /JUDGE_SAMPLES="2" is not valid: expected an odd whole number of samples, 1 or more, e\.g\. 3/,
    );
    assert.equal(fake.requests.length, 0);
  });
  assert.equal(chat.requests.length, sent, "the target was sent nothing");
});

test("FLOW_MODEL=record with JUDGE_SAMPLES=3 tapes every sample; replay with JUDGE_SAMPLES=1 fails with cassette_mismatch naming both, and with 3 makes no request and gives the same verdicts", async () => {
  const { path } = writeScenario("taped");
  const cassette = join(dir.path, "taped", "contact.cassette.json");
  let recorder: FakeOpenAI | undefined;
  await withJudge(async (fake) => {
    recorder = fake;
    const recording = await run(path, { ...live(fake), FLOW_MODEL: "record", JUDGE_SAMPLES: "3" });
    assert.equal(recording.code, 0, recording.stdout + recording.stderr);
    assert.equal(fake.requests.length, 6);
  });
  const tape = JSON.parse(readFileSync(cassette, "utf8")) as CassetteFile;
  assert.deepEqual(
    tape.calls.map((call) => [call.turn, call.kind, call.sample?.index, call.sample?.of]),
    [1, 1, 1, 2, 2, 2].map((turn, index) => [turn, "judge", (index % 3) + 1, 3]),
  );

  // The recorder is closed: a request of a replay would fail its verdict.
  const once = await run(path, { FLOW_MODEL: "replay", OPENAI_BASE_URL: recorder!.baseURL });
  const output = once.stdout + once.stderr;
  assert.equal(once.code, 1, output);
  assert.match(
    output,
    /turn 1 'asks for the name again': the judge model gpt-4o failed: cassette_mismatch: Replay of taped\/contact\.cassette\.json: call 1 \(turn 1 'asks for the name again', judge\) was recorded with JUDGE_SAMPLES=3, and this run has JUDGE_SAMPLES=1: replay it with JUDGE_SAMPLES=3\./,
  );

  const replay = await run(path, { FLOW_MODEL: "replay", OPENAI_BASE_URL: recorder!.baseURL, JUDGE_SAMPLES: "3" });
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
  assert.match(replay.stdout + replay.stderr, /judge: 0 calls made, 0 cached, 6 replayed/);
  assert.equal(recorder!.requests.length, 6, "the replay sent the judge nothing");
  assert.deepEqual(judgesOf(resultsOf()), EXPECTED_JUDGES);
});
