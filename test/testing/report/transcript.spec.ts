import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { test } from "node:test";
import { failed, passed } from "../../../src/testing/checks/check.ts";
import { renderTranscript, runScenario, type Transcript } from "../../../src/testing/index.ts";
import { renderResultConversation } from "../../../src/testing/report/render-transcript.ts";
import type { Judge } from "../../../src/testing/judge/judge.ts";
import type { LoadedScenario } from "../../../src/testing/scenario/scenario.ts";
import type { RunOptions } from "../../../src/testing/run/run-options.ts";
import { TranscriptWriter } from "../../../src/testing/report/transcript-writer.ts";
import { tempDir } from "../../support/temp-path.ts";
import { FakeChatServer, fakeScenario } from "../../support/fake-chat-server.ts";

/** Plays `loaded` against a well-behaved fake server with a TranscriptWriter on `dir` listening. */
async function playWithWriter(
  dir: string,
  loaded: LoadedScenario,
  options: RunOptions = {},
): Promise<TranscriptWriter> {
  const writer = new TranscriptWriter(dir);
  const fake = await FakeChatServer.start();
  try {
    for await (const event of runScenario(loaded, fake.target(), options)) writer.listener(event);
  } finally {
    await fake.close();
  }
  return writer;
}

const judged = fakeScenario(
  [
    { label: "first", input: "hello", expectedActiveStep: "AskStep", expectedResponse: "Echoes hello." },
    { label: "second", input: "second", expectedActiveStep: "NextStep", expectedResponse: "Greets the user." },
  ],
  { description: "Two turns the judge grades." },
);

const strictJudge: Judge = async ({ turn }) =>
  turn.label === "second"
    ? failed("judge", "expectedResponse", "score 0.2 < 0.75: it does not greet")
    : passed("judge", "expectedResponse");

test("a failed contract check writes <scenario>-contract-failure.json with every turn, the failure, the target and the pins", async () => {
  const dir = await tempDir("transcript");
  try {
    const loaded = fakeScenario([
      { label: "first", input: "hello", expectedActiveStep: "AskStep" },
      { label: "wrong step", input: "second", expectedActiveStep: "AskStep" },
      { label: "third", input: "third", expectedActiveStep: "NextStep" },
    ]);
    const writer = await playWithWriter(dir.path, loaded);
    const file = join(dir.path, "fake-contract-failure.json");
    assert.equal(writer.path, relative(process.cwd(), file));
    assert.deepEqual(readdirSync(dir.path), ["fake-contract-failure.json"]);
    const transcript = JSON.parse(readFileSync(file, "utf8")) as Transcript;
    assert.equal(transcript.transcript, 1);
    assert.equal(transcript.kind, "contract");
    assert.equal(transcript.outcome, "failed");
    assert.equal(
      transcript.failure,
      `turn 2 'wrong step': expected active step AskStep, stored NextStep (runStatus running); response: "You said: second"`,
    );
    assert.deepEqual(transcript.scenario, {
      file: "test/testing/fake.scenario.json",
      name: "fake",
      flowName: "FakeFlow",
    });
    assert.deepEqual(transcript.target, { baseUrl: transcript.target.baseUrl, store: "the fake server's Map" });
    assert.match(transcript.target.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.deepEqual(transcript.pins, { FAKE_FLOW_CURRENT_DATE: "2027-07-15T00:00:00.000Z" });
    assert.deepEqual(
      transcript.turns.map((turn) => [turn.label, turn.outcome, turn.response?.status, turn.stored?.turns]),
      [
        ["first", "passed", 200, 1],
        ["wrong step", "failed", 200, 2],
        ["third", "skipped", undefined, undefined],
      ],
    );
    const { stored, ...final } = transcript.final!;
    assert.deepEqual(final, { outcome: "skipped", skipReason: "turn 2 failed", checks: [] });
    assert.equal(stored?.turns, 2, "the whole session as the failure left it");
  } finally {
    dir.remove();
  }
});

test("a run where only a judge check failed writes a semantic transcript", async () => {
  const dir = await tempDir("transcript");
  try {
    const writer = await playWithWriter(dir.path, judged, { judge: strictJudge });
    assert.deepEqual(readdirSync(dir.path), ["fake-semantic-failure.json"]);
    assert.equal(writer.path, relative(process.cwd(), join(dir.path, "fake-semantic-failure.json")));
    const transcript = JSON.parse(readFileSync(join(dir.path, "fake-semantic-failure.json"), "utf8")) as Transcript;
    assert.equal(transcript.kind, "semantic");
    assert.equal(
      transcript.failure,
      `turn 2 'second': score 0.2 < 0.75: it does not greet; response: "You said: second"`,
    );
    assert.equal(transcript.scenario.description, "Two turns the judge grades.");
  } finally {
    dir.remove();
  }
});

test("a failed domain check at the end writes a contract transcript with the final report", async () => {
  const dir = await tempDir("transcript");
  try {
    const loaded = fakeScenario([{ label: "first", input: "hello", expectedActiveStep: "AskStep" }], {
      finalState: { AskStep: { said: "bye" } },
    });
    await playWithWriter(dir.path, loaded);
    const transcript = JSON.parse(readFileSync(join(dir.path, "fake-contract-failure.json"), "utf8")) as Transcript;
    assert.equal(
      transcript.failure,
      'final state: finalState.AskStep: steps.AskStep.said: expected "bye", found "hello"',
    );
    assert.equal(transcript.final?.outcome, "failed");
  } finally {
    dir.remove();
  }
});

test("the transcript is written at the first failure, before the run ends", async () => {
  const dir = await tempDir("transcript");
  const fake = await FakeChatServer.start({ store: () => undefined });
  try {
    const writer = new TranscriptWriter(dir.path);
    const events = runScenario(
      fakeScenario([{ label: "first", input: "hello", expectedActiveStep: "AskStep" }]),
      fake.target(),
    );
    for await (const event of events) {
      writer.listener(event);
      if (event.type === "turn:end") break;
    }
    const transcript = JSON.parse(readFileSync(join(dir.path, "fake-contract-failure.json"), "utf8")) as Transcript;
    assert.equal(
      transcript.failure,
      `turn 1 'first': session session-1 is not in the fake server's Map; response: "You said: hello"`,
    );
    assert.equal(transcript.final, undefined);
  } finally {
    await fake.close();
    dir.remove();
  }
});

test("a passing run writes nothing and removes a stale transcript of the same scenario, leaving other scenarios' alone", async () => {
  const dir = await tempDir("transcript");
  try {
    for (const name of ["fake-contract-failure.json", "fake-semantic-failure.json", "other-contract-failure.json"])
      writeFileSync(join(dir.path, name), "{}\n");
    const writer = await playWithWriter(dir.path, judged);
    assert.equal(writer.path, undefined);
    assert.deepEqual(readdirSync(dir.path), ["other-contract-failure.json"]);
  } finally {
    dir.remove();
  }
});

const transcript: Transcript = {
  transcript: 1,
  kind: "contract",
  scenario: { file: "test/testing/demo.scenario.json", name: "demo", flowName: "DemoFlow", description: "A demo." },
  target: {
    baseUrl: "http://127.0.0.1:4000",
    store: "SQLite test/.tmp/demo/sessions.sqlite",
    models: { DemoFlow: "scripted" },
  },
  pins: { DEMO_FLOW_CURRENT_DATE: "2027-07-15T00:00:00.000Z", OPENAI_API_KEY: "[redacted]" },
  startedAt: "2027-07-15T00:00:00.000Z",
  outcome: "failed",
  failure:
    "turn 2 'city': expected active step AddressStep, stored WeatherStep (runStatus running); response: \"Which city?\"",
  turns: [
    {
      number: 1,
      label: "name",
      input: "John Wick",
      outcome: "passed",
      idempotencyKey: "0c6f1d2e-run-1",
      response: { status: 200, headers: {}, body: { success: true, response: "Hello John Wick.\nWhich city?" } },
      checks: [
        passed("transport", "status"),
        { contract: "judge", name: "expectedResponse", outcome: "skipped", message: "no judge" },
      ],
      millis: { http: 12.345, store: 1 },
    },
    {
      number: 2,
      label: "city",
      input: "LA",
      outcome: "failed",
      idempotencyKey: "0c6f1d2e-run-2",
      response: {
        status: 200,
        headers: {},
        body: [
          { event: "token", data: '{"text":"Which "}' },
          { event: "token", data: '{"text":"city?"}' },
          { event: "done", data: '{"success":true,"response":"Which city?"}' },
        ],
      },
      stored: {
        id: "s",
        version: 1,
        turns: 2,
        flow: { name: "DemoFlow", currentStep: "WeatherStep" },
        runStatus: "running",
        steps: {},
        children: [],
        createdAt: "",
        updatedAt: "",
      },
      checks: [
        passed("transport", "status"),
        failed(
          "persisted",
          "expectedActiveStep",
          "expected active step AddressStep, stored WeatherStep (runStatus running)",
        ),
      ],
      millis: { http: 3, store: 1 },
    },
    {
      number: 3,
      label: "refused",
      input: "again",
      outcome: "passed",
      response: {
        status: 409,
        headers: {},
        body: { success: false, error: { code: "flow_completed", message: "The run has ended." } },
      },
      checks: [passed("transport", "status")],
    },
    { number: 4, label: "address", input: "1 Main St", outcome: "skipped", skipReason: "turn 2 failed", checks: [] },
  ],
  final: { outcome: "skipped", skipReason: "turn 2 failed", checks: [] },
};

test("renderTranscript prints the conversation, each turn's Idempotency-Key, the stored step, and marks failed checks ✗ and skipped ones –", () => {
  assert.equal(
    renderTranscript(transcript),
    [
      "DemoFlow · demo (test/testing/demo.scenario.json) — FAILED (contract)",
      "A demo.",
      "",
      "turn 2 'city': expected active step AddressStep, stored WeatherStep (runStatus running); response: \"Which city?\"",
      "",
      "target   http://127.0.0.1:4000",
      "sessions SQLite test/.tmp/demo/sessions.sqlite",
      "models   DemoFlow scripted",
      "pins     DEMO_FLOW_CURRENT_DATE=2027-07-15T00:00:00.000Z  OPENAI_API_KEY=[redacted]",
      "started  2027-07-15T00:00:00.000Z",
      "",
      "── 1. name ✓  200 · 12.3 ms",
      "   user       John Wick",
      "   key        0c6f1d2e-run-1",
      "   assistant  Hello John Wick.",
      "              Which city?",
      "   checks     1 passed · 0 failed · 1 skipped",
      "   – judge expectedResponse: no judge",
      "── 2. city ✗  200 · 3.0 ms",
      "   user       LA",
      "   key        0c6f1d2e-run-2",
      "   assistant  Which city?   [3 events]",
      "   stored     WeatherStep · running · 2 turns",
      "   checks     1 passed · 1 failed · 0 skipped",
      "   ✗ persisted expectedActiveStep: expected active step AddressStep, stored WeatherStep (runStatus running)",
      "── 3. refused ✓  409",
      "   user       again",
      "   assistant  [flow_completed] The run has ended.",
      "   checks     1 passed · 0 failed · 0 skipped",
      "── 4. address – skipped: turn 2 failed",
      "   user       1 Main St",
      "── final state – skipped: turn 2 failed",
      "",
    ].join("\n"),
  );
});

test("renderTranscript shows a passing run, no pins, and a failed final check", () => {
  const text = renderTranscript({
    ...transcript,
    scenario: { file: "a.scenario.json", name: "a", flowName: "DemoFlow" },
    target: { baseUrl: "http://127.0.0.1:4000", store: "not read: no store" },
    pins: {},
    outcome: "passed",
    turns: [],
    final: {
      outcome: "failed",
      failure: "final state: …",
      checks: [passed("domain", "finalExecution"), failed("domain", "domain checks", "boom")],
    },
  });
  const lines = text.split("\n");
  assert.equal(lines[0], "DemoFlow · a (a.scenario.json) — PASSED");
  assert.ok(lines.includes("pins     none"), text);
  assert.ok(!lines.some((line) => line.startsWith("models")), text);
  assert.deepEqual(lines.slice(-3), ["── final state ✗", "   ✗ domain domain checks: boom", ""]);
});

test("renderTranscript says 1 turn, not 1 turns, and indents a check's further lines under its first", () => {
  const first = transcript.turns[1]!;
  const text = renderTranscript({
    ...transcript,
    turns: [
      {
        ...first,
        stored: { ...first.stored!, turns: 1 },
        checks: [failed("domain", "eachTurn", "the order is wrong:\n  expected 2 lines\n  got 3")],
      },
    ],
  });
  const lines = text.split("\n");
  assert.ok(lines.includes("   stored     WeatherStep · running · 1 turn"), text);
  const at = lines.indexOf("   ✗ domain eachTurn: the order is wrong:");
  assert.notEqual(at, -1, text);
  assert.deepEqual(lines.slice(at + 1, at + 3), ["         expected 2 lines", "         got 3"]);
  assert.ok(text.endsWith("\n") && !text.endsWith("\n\n"), "one trailing newline");
});

test("a session stored by a target that keeps no count of turns shows the count unknown, never 0, in the transcript and in the run's results", () => {
  const first = transcript.turns[1]!;
  const { turns: _turns, ...uncounted } = first.stored!;
  const text = renderTranscript({ ...transcript, turns: [{ ...first, stored: uncounted }] });
  assert.ok(text.split("\n").includes("   stored     WeatherStep · running · turn count unknown"), text);
  const result = renderResultConversation({
    id: "a.scenario.json#a",
    file: "a.scenario.json",
    name: "a",
    flowName: "chat",
    repeat: { index: 1, of: 1 },
    outcome: "passed",
    ran: true,
    pins: {},
    models: {},
    tokens: { model: { input: 0, output: 0 }, judge: { input: 0, output: 0 } },
    turns: [
      {
        number: 1,
        label: "hello",
        input: "Hi",
        outcome: "passed",
        checks: [],
        stored: { step: "greet", runStatus: "running" },
      },
    ],
  });
  assert.ok(result.split("\n").includes("   stored     greet · running · turn count unknown"), result);
  assert.doesNotMatch(text + result, /· 0 turns/);
});

test("renderResultConversation names a repeat and prints a conversation that never ran with its reason", () => {
  const text = renderResultConversation({
    id: "a.scenario.json#a@2",
    file: "a.scenario.json",
    name: "a",
    flowName: "DemoFlow",
    repeat: { index: 2, of: 3 },
    outcome: "skipped",
    ran: false,
    reason: "FLOW_MAX_TOKENS=100 was reached (120 tokens used), so this conversation was not started",
    pins: {},
    models: {},
    tokens: { model: { input: 0, output: 0 }, judge: { input: 0, output: 0 } },
    turns: [{ number: 1, label: "hello", input: "Hi", outcome: "skipped", skipReason: "not started", checks: [] }],
  });
  const lines = text.split("\n");
  assert.equal(lines[0], "DemoFlow · a, run 2 of 3 (a.scenario.json) — SKIPPED");
  assert.equal(lines[2], "FLOW_MAX_TOKENS=100 was reached (120 tokens used), so this conversation was not started");
  assert.ok(lines.includes("── 1. hello – skipped: not started"), text);
  assert.ok(!lines.some((line) => line.startsWith("target")), text);
});
