import assert from "node:assert/strict";
import { test } from "node:test";
import type { SessionView } from "../../../src/testing/checks/session-view.ts";
import { stepState, type Scenario } from "../../../src/testing/index.ts";
import { fakeScenario, playAgainstFake } from "../../support/fake-chat-server.ts";

/** Two turns the fake answers well: "hello" (AskStep) then "bye" (NextStep, completed). */
function twoTurns(extra: Partial<Scenario>) {
  return fakeScenario(
    [
      { label: "first", input: "hello", expectedActiveStep: "AskStep" },
      { label: "done", input: "bye", expectedActiveStep: "NextStep", completed: true },
    ],
    extra,
  );
}

test("finalState and finalExecution pass on partial matches of the stored session", async () => {
  const { final, outcome } = await playAgainstFake(
    twoTurns({
      finalState: { AskStep: { said: "hello" }, NextStep: { said: "bye", count: 2 } },
      finalExecution: [
        { turn: 1, step: "AskStep", outcome: "stay" },
        { turn: 2, name: "echo", outcome: "complete" },
      ],
    }),
  );
  const { stored, ...report } = final;
  assert.equal(stored?.turns, 2, "the report carries the whole session the checks read");
  assert.deepEqual(report, {
    outcome: "passed",
    checks: [
      {
        contract: "domain",
        name: "finalState.AskStep",
        outcome: "passed",
        expected: { said: "hello" },
        actual: stored?.steps["AskStep"],
      },
      {
        contract: "domain",
        name: "finalState.NextStep",
        outcome: "passed",
        expected: { said: "bye", count: 2 },
        actual: stored?.steps["NextStep"],
      },
      {
        contract: "domain",
        name: "finalExecution",
        outcome: "passed",
        expected: [
          { turn: 1, step: "AskStep", outcome: "stay" },
          { turn: 2, name: "echo", outcome: "complete" },
        ],
        actual: stored?.execution,
      },
    ],
  });
  assert.equal(outcome, "passed");
});

test("a finalState mismatch fails the final report with the path, the value expected and the value stored", async () => {
  const { turns, final, outcome } = await playAgainstFake(twoTurns({ finalState: { AskStep: { said: "goodbye" } } }));
  assert.deepEqual(
    turns.map((turn) => turn.outcome),
    ["passed", "passed"],
  );
  assert.deepEqual(final.checks, [
    {
      contract: "domain",
      name: "finalState.AskStep",
      outcome: "failed",
      message: 'steps.AskStep.said: expected "goodbye", found "hello"',
      expected: { said: "goodbye" },
      actual: final.stored?.steps["AskStep"],
    },
  ]);
  assert.equal(final.outcome, "failed");
  assert.equal(final.failure, 'final state: finalState.AskStep: steps.AskStep.said: expected "goodbye", found "hello"');
  assert.equal(outcome, "failed");
});

test("a finalState key the step lacks is reported with the keys the step has", async () => {
  const { final } = await playAgainstFake(twoTurns({ finalState: { NextStep: { city: "LA" } } }));
  assert.equal(
    final.failure,
    "final state: finalState.NextStep: steps.NextStep.city: missing; steps.NextStep has said, count",
  );
});

test("a finalExecution of another length fails listing every stored entry", async () => {
  const { final } = await playAgainstFake(twoTurns({ finalExecution: [{ turn: 1, step: "AskStep" }] }));
  assert.deepEqual(final.checks, [
    {
      contract: "domain",
      name: "finalExecution",
      outcome: "failed",
      message: "expected 1 execution entries, stored 2: 1:AskStep.echo stay, 2:NextStep.echo complete",
      expected: [{ turn: 1, step: "AskStep" }],
      actual: final.stored?.execution,
    },
  ]);
});

test("a finalExecution entry that differs fails naming the entry, the field, the value expected and the value stored", async () => {
  const { final } = await playAgainstFake(
    twoTurns({
      finalExecution: [
        { turn: 1, step: "AskStep" },
        { turn: 2, outcome: "advance", to: "AskStep" },
      ],
    }),
  );
  assert.equal(
    final.checks[0]!.message,
    'execution[1].outcome: expected "advance", found "complete"; execution[1].to: missing; execution[1] has seq, turn, step, kind, name, outcome',
  );
});

test("domain checks receive the stored session and the scenario, and pass when they do not throw", async () => {
  const seen: { document: SessionView; flowName: string }[] = [];
  const { final } = await playAgainstFake(
    twoTurns({}),
    {},
    {
      domain: (document, scenario) => {
        seen.push({ document, flowName: scenario.flowName });
        assert.equal(stepState(document, "NextStep")["said"], "bye");
      },
    },
  );
  const { stored, ...report } = final;
  assert.deepEqual(report, {
    outcome: "passed",
    checks: [{ contract: "domain", name: "domain checks", outcome: "passed" }],
  });
  assert.deepEqual(stored, seen[0]?.document);
  assert.equal(seen.length, 1);
  assert.equal(seen[0]!.flowName, "FakeFlow");
  assert.equal(seen[0]!.document.id, "session-1");
  assert.equal(seen[0]!.document.turns, 2);
});

test("a domain check that throws fails the final report with its message", async () => {
  const { final, outcome } = await playAgainstFake(
    twoTurns({ finalState: { AskStep: { said: "hello" } } }),
    {},
    { domain: (document) => void stepState(document, "WeatherStep") },
  );
  assert.deepEqual(final.checks, [
    {
      contract: "domain",
      name: "finalState.AskStep",
      outcome: "passed",
      expected: { said: "hello" },
      actual: { said: "hello", count: 1 },
    },
    {
      contract: "domain",
      name: "domain checks",
      outcome: "failed",
      message: "WeatherStep has no state in session session-1; the steps with state are AskStep, NextStep.",
    },
  ]);
  assert.equal(
    final.failure,
    "final state: domain checks: WeatherStep has no state in session session-1; the steps with state are AskStep, NextStep.",
  );
  assert.equal(outcome, "failed");
});

test("an async domain check that rejects fails the final report with the rejection's message", async () => {
  const { final } = await playAgainstFake(
    twoTurns({}),
    {},
    {
      domain: async (document) => {
        await Promise.resolve();
        if (document.turns !== 5) throw new Error(`the session holds ${document.turns} turns, not 5`);
      },
    },
  );
  assert.equal(final.outcome, "failed");
  assert.equal(final.failure, "final state: domain checks: the session holds 2 turns, not 5");
});

/** A nested run as the engine stores it under `children`. */
const childRun = (turn: number, runStatus: "running" | "completed") => ({
  flow: "CheckFlow",
  parentStep: "NextStep",
  turn,
  runStatus,
  currentStep: "VerifyStep",
  steps: { VerifyStep: runStatus === "completed" ? { verified: true } : {} },
  memory: {},
  execution: [],
});
const withChildren: Parameters<typeof playAgainstFake>[1] = {
  store: (next) => ({ ...next, children: next.turns === 2 ? [childRun(2, "running"), childRun(2, "completed")] : [] }),
};

test("finalChildren and finalMemory pass on partial matches of the stored nested runs and of each listed namespace", async () => {
  const finalChildren = [
    { flow: "CheckFlow", parentStep: "NextStep", runStatus: "running", steps: { VerifyStep: {} } },
    { flow: "CheckFlow", turn: 2, runStatus: "completed", steps: { VerifyStep: { verified: true } } },
  ];
  const flow = [
    { role: "user", content: "hello" },
    { role: "assistant" },
    { role: "user", content: "bye" },
    { role: "assistant", content: "Goodbye." },
  ];
  const { final } = await playAgainstFake(twoTurns({ finalChildren, finalMemory: { flow } }), withChildren);
  // The runs found are shown without their memory and log, which the check does not compare.
  const found = [childRun(2, "running"), childRun(2, "completed")].map(
    ({ memory: _memory, execution: _execution, ...child }) => child,
  );
  assert.deepEqual(final.checks, [
    { contract: "domain", name: "finalChildren", outcome: "passed", expected: finalChildren, actual: found },
    {
      contract: "domain",
      name: "finalMemory.flow",
      outcome: "passed",
      expected: flow,
      actual: final.stored?.memory["flow"],
    },
  ]);
});

test("finalChildren of another length lists every stored run, and a run that differs names its field", async () => {
  const short = await playAgainstFake(twoTurns({ finalChildren: [{ flow: "CheckFlow" }] }), withChildren);
  assert.equal(
    short.final.failure,
    "final state: finalChildren: expected 1 nested runs, stored 2: 2:NextStep → CheckFlow running, 2:NextStep → CheckFlow completed",
  );
  const differs = await playAgainstFake(
    twoTurns({ finalChildren: [{ runStatus: "running" }, { steps: { VerifyStep: { verified: false } } }] }),
    withChildren,
  );
  assert.equal(
    differs.final.failure,
    "final state: finalChildren: children[1].steps.VerifyStep.verified: expected false, found true",
  );
  const none = await playAgainstFake(twoTurns({ finalChildren: [] }), withChildren);
  assert.equal(
    none.final.failure,
    "final state: finalChildren: expected 0 nested runs, stored 2: 2:NextStep → CheckFlow running, 2:NextStep → CheckFlow completed",
  );
});

test("a finalMemory namespace the session lacks names the namespaces it has, and one of another length lists the stored messages", async () => {
  const missing = await playAgainstFake(twoTurns({ finalMemory: { AskStep: [] } }));
  assert.equal(missing.final.failure, "final state: finalMemory.AskStep: memory has no namespace AskStep; it has flow");
  const longer = await playAgainstFake(twoTurns({ finalMemory: { flow: [{ role: "user" }, { role: "assistant" }] } }));
  assert.equal(
    longer.final.failure,
    "final state: finalMemory.flow: expected 2 messages, stored 4: user, assistant, user, assistant",
  );
  const differs = await playAgainstFake(
    twoTurns({
      finalMemory: {
        flow: [{ role: "user" }, { role: "assistant" }, { role: "user", content: "bye!" }, { role: "assistant" }],
      },
    }),
  );
  assert.equal(
    differs.final.failure,
    'final state: finalMemory.flow: memory.flow[2].content: expected "bye!", found "bye"',
  );
});

test("eachTurn runs after every answered turn on the head as stored, and not after an error answer", async () => {
  const seen: [string, number | undefined, string][] = [];
  const loaded = fakeScenario([
    { label: "first", input: "hello", expectedActiveStep: "AskStep" },
    { label: "done", input: "bye", expectedActiveStep: "NextStep", completed: true },
    { label: "refused", input: "again", expectedStatus: 409 },
  ]);
  const { turns, outcome } = await playAgainstFake(
    loaded,
    {},
    {
      eachTurn: (head, turn) =>
        void seen.push([turn.label, head.turns, String(stepState(head, head.flow.currentStep)["said"])]),
    },
  );
  assert.equal(outcome, "passed");
  assert.deepEqual(seen, [
    ["first", 1, "hello"],
    ["done", 2, "bye"],
  ]);
  assert.deepEqual(
    turns.map((turn) => turn.checks.find((c) => c.name === "eachTurn")?.outcome),
    ["passed", "passed", undefined],
  );
});

test("an eachTurn that throws fails that turn of the domain contract with its message, and the rest are skipped", async () => {
  const { turns } = await playAgainstFake(
    twoTurns({}),
    {},
    {
      eachTurn: async (head) => {
        if (head.turns === 1) throw new Error("the greeting was not saved");
      },
    },
  );
  assert.equal(turns[0]!.failure, `turn 1 'first': the greeting was not saved; response: "You said: hello"`);
  assert.deepEqual(
    turns[0]!.checks.find((c) => c.name === "eachTurn"),
    { contract: "domain", name: "eachTurn", outcome: "failed", message: "the greeting was not saved" },
  );
  assert.equal(turns[1]!.skipReason, "turn 1 failed");
});
