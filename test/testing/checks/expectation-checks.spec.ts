import assert from "node:assert/strict";
import { test } from "node:test";
import type { ScenarioTurn } from "../../../src/testing/index.ts";
import { failures, fakeScenario, playAgainstFake } from "../../support/fake-chat-server.ts";

/** One turn "hello" (the fake answers "You said: hello", stores AskStep {said, count}) with `expectations`. */
async function firstTurn(expectations: Partial<ScenarioTurn>) {
  const { turns } = await playAgainstFake(
    fakeScenario([{ label: "first", input: "hello", expectedActiveStep: "AskStep", ...expectations }]),
  );
  return turns[0]!;
}

test("responseMustInclude passes ignoring case and fails naming the missing text", async () => {
  const turn = await firstTurn({ responseMustInclude: ["YOU SAID", "goodbye"] });
  assert.deepEqual(
    turn.checks.filter((c) => c.contract === "expectation"),
    [
      { contract: "expectation", name: "responseMustInclude[0]", outcome: "passed", expected: "YOU SAID" },
      {
        contract: "expectation",
        name: "responseMustInclude[1]",
        outcome: "failed",
        message: 'the response lacks "goodbye"',
        expected: "goodbye",
      },
    ],
  );
  assert.equal(turn.failure, `turn 1 'first': the response lacks "goodbye"; response: "You said: hello"`);
});

test("responseMustNotInclude fails, ignoring case, when the response contains the text", async () => {
  const turn = await firstTurn({ responseMustNotInclude: ["placeholder", "HELLO"] });
  assert.deepEqual(failures(turn), ['responseMustNotInclude[1]: the response contains "HELLO"']);
});

test("responseMatches fails naming the pattern; /pattern/flags honours its flags and a bare pattern is case-sensitive", async () => {
  const turn = await firstTurn({ responseMatches: ["/^you said/i", "^you said", "said: \\w+$"] });
  assert.deepEqual(
    turn.checks.filter((c) => c.contract === "expectation").map((c) => [c.name, c.outcome, c.message]),
    [
      ["responseMatches[0]", "passed", undefined],
      ["responseMatches[1]", "failed", "the response does not match ^you said"],
      ["responseMatches[2]", "passed", undefined],
    ],
  );
});

test("a single responseMatches pattern is checked like a list of one", async () => {
  const turn = await firstTurn({ responseMatches: "/goodbye/" });
  assert.deepEqual(failures(turn), ["responseMatches[0]: the response does not match /goodbye/"]);
});

test("expectState passes on a partial match of the stored step state", async () => {
  const turn = await firstTurn({ expectState: { AskStep: { said: "hello" } } });
  assert.equal(turn.outcome, "passed", turn.failure);
});

test("expectState fails with the path, the value expected and the value stored", async () => {
  const turn = await firstTurn({ expectState: { AskStep: { said: "bye", count: 1 } } });
  assert.deepEqual(failures(turn), ['expectState.AskStep: steps.AskStep.said: expected "bye", found "hello"']);
});

test("expectState on a missing key lists the keys the stored state has", async () => {
  const turn = await firstTurn({ expectState: { AskStep: { name: "John", said: "hello" } } });
  assert.deepEqual(failures(turn), ["expectState.AskStep: steps.AskStep.name: missing; steps.AskStep has said, count"]);
});

test("expectState on a step that holds no state fails saying the state is empty", async () => {
  const turn = await firstTurn({ expectState: { NextStep: { said: "hello" } } });
  assert.deepEqual(failures(turn), ["expectState.NextStep: steps.NextStep.said: missing; steps.NextStep is empty"]);
});

test("the expectations of an error answer read the error's message", async () => {
  const { turns } = await playAgainstFake(
    fakeScenario([
      { label: "done", input: "bye", expectedActiveStep: "AskStep", completed: true },
      {
        label: "refused",
        input: "again",
        expectedStatus: 409,
        responseMustInclude: ["has ended"],
        responseMustNotInclude: ["You said"],
      },
    ]),
  );
  assert.equal(turns[1]!.outcome, "passed", turns[1]!.failure);
  assert.deepEqual(
    turns[1]!.checks.filter((c) => c.contract === "expectation").map((c) => c.outcome),
    ["passed", "passed"],
  );
});
