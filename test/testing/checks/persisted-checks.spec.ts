import assert from "node:assert/strict";
import { test } from "node:test";
import { persistedChecks } from "../../../src/testing/checks/persisted-checks.ts";
import { checkNamed, failures, fakeScenario, playAgainstFake } from "../../support/fake-chat-server.ts";

const twoTurns = fakeScenario([
  { label: "first", input: "hello", expectedActiveStep: "AskStep" },
  { label: "second", input: "second", expectedActiveStep: "NextStep" },
]);

test("a well-behaved server passes every persisted check: flow, step, run status, turn count and the answer's claims", async () => {
  const { turns } = await playAgainstFake(twoTurns);
  const values: [string, unknown][] = [
    ["flow", "FakeFlow"],
    ["expectedActiveStep", "NextStep"],
    ["completed", "running"],
    ["turns", 2],
    ["answer's currentStep", "NextStep"],
    ["answer's runStatus", "running"],
    ["answer's completed", false],
  ];
  assert.deepEqual(
    turns[1]!.checks.filter((c) => c.contract === "persisted"),
    values.map(([name, value]) => ({ contract: "persisted", name, outcome: "passed", expected: value, actual: value })),
  );
  assert.equal(turns[1]!.stored?.turns, 2);
});

test("a server that stores another step than it answers fails answer's currentStep, and expectedActiveStep names both steps", async () => {
  const { turns } = await playAgainstFake(twoTurns, {
    store: (next, request) =>
      request.number === 2 ? { ...next, flow: { ...next.flow, currentStep: "AskStep" } } : next,
  });
  const second = turns[1]!;
  assert.equal(turns[0]!.outcome, "passed");
  assert.equal(second.outcome, "failed");
  assert.deepEqual(failures(second), [
    "expectedActiveStep: expected active step NextStep, stored AskStep (runStatus running)",
    `answer's currentStep: the answer says currentStep "NextStep" but the store has "AskStep"`,
  ]);
  assert.equal(
    second.failure,
    `turn 2 'second': expected active step NextStep, stored AskStep (runStatus running); the answer says currentStep "NextStep" but the store has "AskStep"; response: "You said: second"`,
  );
  assert.equal(second.stored?.flow.currentStep, "AskStep");
});

test("a server that stores nothing fails the stored check naming where the runner looked", async () => {
  const loaded = fakeScenario([
    { label: "first", input: "hello", expectedActiveStep: "AskStep", expectState: { AskStep: { said: "hello" } } },
  ]);
  const { turns, final } = await playAgainstFake(loaded, { store: () => undefined });
  assert.deepEqual(failures(turns[0]!), [
    "stored: session session-1 is not in the fake server's Map",
    "expectState.AskStep: the session is not stored",
  ]);
  assert.equal(turns[0]!.stored, undefined);
  assert.deepEqual(final, { outcome: "skipped", skipReason: "turn 1 failed", checks: [] });
});

test("a server that applies a turn twice fails the turns check with the count expected and the count stored", async () => {
  const { turns } = await playAgainstFake(twoTurns, {
    store: (next, request) => (request.number === 2 ? { ...next, turns: next.turns + 1 } : next),
  });
  assert.deepEqual(failures(turns[1]!), ["turns: expected the store to hold 2 turns, it holds 3"]);
});

test("a server that stores a completed run while answering running fails the completed check and the answer's claims", async () => {
  const { turns } = await playAgainstFake(twoTurns, { store: (next) => ({ ...next, runStatus: "completed" }) });
  assert.deepEqual(failures(turns[0]!), [
    "completed: expected runStatus running, stored completed",
    `answer's runStatus: the answer says runStatus "running" but the store has "completed"`,
    `answer's completed: the answer says completed false but the store has true`,
  ]);
});

test("a turn that expects completion fails when the stored run is still running", async () => {
  const loaded = fakeScenario([{ label: "first", input: "hello", expectedActiveStep: "AskStep", completed: true }]);
  const { turns } = await playAgainstFake(loaded);
  assert.deepEqual(failures(turns[0]!), ["completed: expected runStatus completed, stored running"]);
});

test("a server that stores the session under another flow fails the flow check", async () => {
  const { turns } = await playAgainstFake(twoTurns, {
    store: (next) => ({ ...next, flow: { ...next.flow, name: "OtherFlow" } }),
  });
  assert.deepEqual(failures(turns[0]!), ["flow: expected flow FakeFlow, stored OtherFlow"]);
});

const endsRefused = fakeScenario([
  { label: "first", input: "hello", expectedActiveStep: "AskStep" },
  { label: "done", input: "bye", expectedActiveStep: "NextStep", completed: true },
  { label: "refused", input: "again", expectedStatus: 409, responseMustInclude: ["has ended"] },
]);

test("an error answer after which the store reports no write passes the unchanged check without reading the session again", async () => {
  const { turns, final, fake } = await playAgainstFake(endsRefused);
  assert.equal(turns[2]!.outcome, "passed", turns[2]!.failure);
  assert.equal(checkNamed(turns[2]!, "unchanged").outcome, "passed");
  assert.equal(final.outcome, "passed");
  // One read per answered turn (this store has no head of its own), one before the refused turn; none after it.
  assert.equal(fake.wholeReads, 3);
});

test("an error answer on a store without a write mark, or after a write, is compared with the whole session read again", async () => {
  const unmarked = await playAgainstFake(endsRefused, { withoutWriteMark: true });
  const rewritten = await playAgainstFake(endsRefused, { store: (next) => next });
  for (const { turns, final, fake } of [unmarked, rewritten]) {
    assert.equal(checkNamed(turns[2]!, "unchanged").outcome, "passed");
    assert.equal(final.outcome, "passed");
    assert.equal(fake.wholeReads, 4);
  }
});

test("an error answer that changes the stored session fails the unchanged check, whether or not the store has a write mark", async () => {
  for (const withoutWriteMark of [false, true]) {
    const { turns } = await playAgainstFake(endsRefused, {
      store: (next, _request, status) => (status === 409 ? { ...next, turns: next.turns + 1 } : next),
      withoutWriteMark,
    });
    const refused = turns[2]!;
    assert.equal(checkNamed(refused, "status").outcome, "passed");
    assert.deepEqual(failures(refused), [
      "unchanged: the error answer changed the stored session: turns differ from before the turn",
    ]);
  }
});

test("a session read without a count of turns skips the turns check with the reader's reason, and compares nothing against a made-up count", () => {
  const head = (currentStep: string) => ({
    id: "thread-1",
    version: 0,
    flow: { name: "chat", currentStep },
    runStatus: "running" as const,
    steps: {},
    children: [],
    createdAt: "",
    updatedAt: "",
  });
  const answer = {
    mediaType: "application/json",
    json: {},
    events: undefined,
    text: "Hi",
    problems: [],
    claimsOnly: true,
  };
  const turn = { label: "second", input: "Ada", expectedActiveStep: "ask_age" };
  const reason = "a LangGraph thread keeps checkpoints, not turns, so the turn count is not checked";
  const checks = persistedChecks(turn, "chat", answer, head("ask_age"), head("greet"), "the threads", "thread-1", {
    turns: reason,
  });
  assert.deepEqual(checkNamed({ checks }, "turns"), {
    contract: "persisted",
    name: "turns",
    outcome: "skipped",
    message: reason,
  });
  // A reader that forgot to say why still skips it rather than compare undefined with 1.
  const unexplained = persistedChecks(turn, "chat", answer, head("ask_age"), undefined, "the threads", "thread-1");
  assert.equal(checkNamed({ checks: unexplained }, "turns").outcome, "skipped");
  assert.ok(
    checks.every((check) => check.outcome !== "failed"),
    JSON.stringify(checks),
  );
});

test("a session read without steps skips the step check with the reader's reason, and still checks the run status", () => {
  const head = {
    id: "thread-1",
    version: 0,
    turns: 1,
    flow: { name: "tripDesk", currentStep: "" },
    runStatus: "running" as const,
    steps: {},
    children: [],
    createdAt: "",
    updatedAt: "",
  };
  const answer = { mediaType: "text/event-stream", json: undefined, events: undefined, text: "Hi", problems: [] };
  const reason = "a Mastra agent has no steps, so the stored step is not checked";
  const checks = persistedChecks(
    { label: "hi", input: "Hi" },
    "tripDesk",
    answer,
    head,
    undefined,
    "the threads",
    "thread-1",
    {
      step: reason,
    },
  );
  assert.deepEqual(checkNamed({ checks }, "expectedActiveStep"), {
    contract: "persisted",
    name: "expectedActiveStep",
    outcome: "skipped",
    message: reason,
  });
  assert.equal(checkNamed({ checks }, "completed").outcome, "passed");
  const ended = persistedChecks(
    { label: "bye", input: "Bye", completed: true },
    "tripDesk",
    answer,
    head,
    undefined,
    "the threads",
    "thread-1",
    { step: reason },
  );
  assert.equal(checkNamed({ checks: ended }, "completed").message, "expected runStatus completed, stored running");
});
