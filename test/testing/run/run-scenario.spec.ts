import assert from "node:assert/strict";
import { test } from "node:test";
import { failed, passed } from "../../../src/testing/checks/check.ts";
import { runScenario, ScenarioRun } from "../../../src/testing/index.ts";
import type { Judge } from "../../../src/testing/judge/judge.ts";
import type { ScenarioEvent } from "../../../src/testing/run/scenario-event.ts";
import { collect, FakeChatServer, fakeScenario, playAgainstFake } from "../../support/fake-chat-server.ts";

const conversation = fakeScenario(
  [
    {
      label: "first",
      input: "hello",
      expectedActiveStep: "AskStep",
      responseMustInclude: ["you said"],
      expectState: { AskStep: { said: "hello" } },
    },
    {
      label: "second",
      input: "second",
      expectedActiveStep: "NextStep",
      accept: "text/event-stream",
      expectContentType: "text/event-stream",
    },
    { label: "done", input: "bye", expectedActiveStep: "NextStep", completed: true },
    { label: "refused", input: "again", expectedStatus: 409, responseMustInclude: ["has ended"] },
  ],
  {
    finalState: { AskStep: { said: "hello" } },
    finalExecution: [{ turn: 1 }, { turn: 2 }, { turn: 3, outcome: "complete" }],
  },
);

test("a scenario against a well-behaved server passes every turn and the final state, every check passed", async () => {
  const { turns, final, outcome, events } = await playAgainstFake(conversation);
  assert.deepEqual(events, ["scenario:start", "turn:end", "turn:end", "turn:end", "turn:end", "final", "scenario:end"]);
  assert.deepEqual(
    turns.map((turn) => [turn.number, turn.label, turn.outcome]),
    [
      [1, "first", "passed"],
      [2, "second", "passed"],
      [3, "done", "passed"],
      [4, "refused", "passed"],
    ],
  );
  for (const turn of turns)
    assert.deepEqual(
      turn.checks.filter((c) => c.outcome !== "passed"),
      [],
      `turn ${turn.number}`,
    );
  assert.equal(final.outcome, "passed");
  assert.equal(outcome, "passed");
});

test("each turn report carries the request with its whole URL, the response with its status and the stored session", async () => {
  const { turns } = await playAgainstFake(conversation);
  const [first, second] = turns;
  assert.deepEqual(first!.request, {
    method: "POST",
    url: first!.request!.url,
    path: "/ai/chat",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json",
      "Idempotency-Key": first!.idempotencyKey,
    },
    body: { flow: "FakeFlow", message: "hello" },
  });
  assert.match(first!.request!.url!, /^http:\/\/127\.0\.0\.1:\d+\/ai\/chat$/);
  assert.deepEqual(second!.request?.body, { message: "second" });
  assert.equal(second!.request?.headers["CHAT_SESSION_ID"], "session-1");
  assert.equal(first!.response?.status, 200);
  assert.deepEqual(first!.response?.body, {
    success: true,
    session: "session-1",
    response: "You said: hello",
    currentStep: "AskStep",
    runStatus: "running",
    completed: false,
  });
  assert.equal(first!.stored?.turns, 1);
  assert.equal(second!.stored?.flow.currentStep, "NextStep");
});

test("each turn is sent under an Idempotency-Key of its own, shown unredacted in its report, and a new run has new keys", async () => {
  const { turns, fake } = await playAgainstFake(conversation);
  const keys = turns.map((turn) => turn.idempotencyKey);
  assert.deepEqual(
    fake.requests.map((request) => request.idempotencyKey),
    keys,
  );
  for (const [i, turn] of turns.entries()) {
    assert.match(keys[i]!, /^[0-9a-f-]{36}-\d+$/);
    assert.equal(turn.request?.headers["Idempotency-Key"], keys[i]);
  }
  assert.equal(new Set(keys).size, keys.length);
  const again = await playAgainstFake(conversation);
  assert.deepEqual(
    again.turns.map((turn) => keys.includes(turn.idempotencyKey)),
    [false, false, false, false],
  );
});

test("after a failed turn runScenario skips the rest with the reason, and the final report is skipped with it", async () => {
  const loaded = fakeScenario(
    [
      { label: "first", input: "hello", expectedActiveStep: "AskStep" },
      { label: "wrong step", input: "second", expectedActiveStep: "AskStep" },
      { label: "third", input: "third", expectedActiveStep: "NextStep" },
      { label: "fourth", input: "bye", expectedActiveStep: "NextStep", completed: true },
    ],
    { finalState: { AskStep: { said: "hello" } } },
  );
  const { turns, final, outcome, events, fake } = await playAgainstFake(loaded);
  assert.deepEqual(
    turns.map((turn) => [turn.label, turn.outcome, turn.skipReason]),
    [
      ["first", "passed", undefined],
      ["wrong step", "failed", undefined],
      ["third", "skipped", "turn 2 failed"],
      ["fourth", "skipped", "turn 2 failed"],
    ],
  );
  assert.equal(
    turns[1]!.failure,
    `turn 2 'wrong step': expected active step AskStep, stored NextStep (runStatus running); response: "You said: second"`,
  );
  assert.deepEqual(turns[2]!.checks, []);
  const { stored, ...skippedFinal } = final;
  assert.deepEqual(skippedFinal, { outcome: "skipped", skipReason: "turn 2 failed", checks: [] });
  // For the transcript, the whole session as the failed turn left it.
  assert.equal(stored?.turns, 2);
  assert.deepEqual(
    stored?.memory["flow"]?.map((m) => m.content),
    ["hello", "You said: hello", "second", "You said: second"],
  );
  assert.equal(outcome, "failed");
  assert.deepEqual(events.at(-1), "scenario:end");
  assert.deepEqual(
    fake.requests.map((request) => request.message),
    ["hello", "second"],
  );
});

test("a JSON input that reaches a flowcheck server without the loader fails its turn unsent, saying the flow takes text", async () => {
  const loaded = fakeScenario([
    { label: "first", input: "hello", expectedActiveStep: "AskStep" },
    { label: "confirms", input: { confirm: true }, expectedActiveStep: "NextStep" },
  ]);
  const { turns, fake } = await playAgainstFake(loaded);
  assert.deepEqual(
    turns.map((turn) => [turn.label, turn.outcome]),
    [
      ["first", "passed"],
      ["confirms", "failed"],
    ],
  );
  assert.equal(
    turns[1]!.failure,
    `turn 2 'confirms': The turn's input {"confirm":true} is an object, but FakeFlow is a flowcheck flow, which takes a text message; only a LangGraph target resumes an interrupt with a JSON value. Write the input as a string.`,
  );
  assert.deepEqual(turns[1]!.input, { confirm: true });
  assert.deepEqual(
    fake.requests.map((request) => request.message),
    ["hello"],
  );
});

test("without a judge an expectedResponse is a skipped judge check saying why, and the turn still passes", async () => {
  const loaded = fakeScenario([
    { label: "first", input: "hello", expectedActiveStep: "AskStep", expectedResponse: "The assistant echoes hello." },
  ]);
  const { turns } = await playAgainstFake(loaded);
  assert.equal(turns[0]!.outcome, "passed");
  assert.deepEqual(turns[0]!.checks.at(-1), {
    contract: "judge",
    name: "expectedResponse",
    outcome: "skipped",
    message: "no LLM judge is configured in this run, so expectedResponse is not graded",
  });
});

test("a judge grades each expectedResponse with the answer and the turns before; its failure fails the run, not the turn", async () => {
  const asked: { label: string; text: string; history: number }[] = [];
  const judge: Judge = async ({ turn, answer, history }) => {
    asked.push({ label: turn.label, text: answer.text, history: history.length });
    return turn.label === "second"
      ? failed("judge", "expectedResponse", "score 0.2 < 0.75: it does not greet")
      : passed("judge", "expectedResponse");
  };
  const loaded = fakeScenario([
    { label: "first", input: "hello", expectedActiveStep: "AskStep", expectedResponse: "Echoes hello." },
    { label: "untested", input: "quiet", expectedActiveStep: "NextStep" },
    { label: "second", input: "hi", expectedActiveStep: "NextStep", expectedResponse: "Greets the user." },
  ]);
  const { turns, outcome } = await playAgainstFake(loaded, {}, { judge });
  assert.deepEqual(asked, [
    { label: "first", text: "You said: hello", history: 0 },
    { label: "second", text: "You said: hi", history: 2 },
  ]);
  // The contracts held, so the conversation goes on; the verdict fails the run and its judge test.
  assert.equal(turns[2]!.outcome, "passed");
  assert.equal(turns[2]!.failure, undefined);
  assert.deepEqual(
    turns[2]!.checks.filter((c) => c.outcome === "failed").map((c) => [c.contract, c.message]),
    [["judge", "score 0.2 < 0.75: it does not greet"]],
  );
  assert.equal(outcome, "failed");
});

test("ScenarioRun plays turns one at a time, keeps the session id, and emits each report to its listeners", async () => {
  const fake = await FakeChatServer.start();
  const run = new ScenarioRun(conversation, fake.target());
  const seen: ScenarioEvent["type"][] = [];
  run.on((event) => seen.push(event.type));
  try {
    run.start();
    const first = await run.playTurn(0);
    assert.equal(first.outcome, "passed", first.failure);
    assert.equal(run.session, "session-1");
    const skipped = run.skipTurn(1, "not wanted here");
    assert.deepEqual(skipped, {
      number: 2,
      label: "second",
      input: "second",
      outcome: "skipped",
      skipReason: "not wanted here",
      checks: [],
    });
    assert.equal(run.failed, false);
    assert.deepEqual(seen, ["scenario:start", "turn:end", "turn:end"]);
    assert.equal(run.reports.length, 2);
  } finally {
    run.end();
    await fake.close();
  }
  assert.deepEqual(seen.at(-1), "scenario:end");
});

test("runScenario yields the run's events as they happen, the start first", async () => {
  const fake = await FakeChatServer.start();
  try {
    const events = runScenario(conversation, fake.target());
    const first = await events.next();
    assert.equal(first.done, false);
    assert.equal(first.value?.type, "scenario:start");
    assert.equal(fake.requests.length, 0);
    const rest = await collect(events);
    assert.equal(rest.outcome, "passed");
    assert.equal(fake.requests.length, 4);
  } finally {
    await fake.close();
  }
});
