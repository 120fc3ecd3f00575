import assert from "node:assert/strict";
import { test } from "node:test";
import type { UserTurnRequest } from "../../../src/engine/scripted-user.ts";
import type { UserSimulator, UserTurn } from "../../../src/testing/user/user-simulator.ts";
import { checkNamed, failures, fakeScenario, playAgainstFake } from "../../support/fake-chat-server.ts";

/** A user that says each of `messages` in turn (then is done), and keeps what it was asked. */
function sayingUser(messages: readonly (string | UserTurn)[]): UserSimulator & { asked: UserTurnRequest[] } {
  const asked: UserTurnRequest[] = [];
  return {
    player: "test",
    asked,
    next: async (request) => {
      asked.push(structuredClone(request));
      const next = messages[request.turn - 1];
      if (next === undefined) return { message: "", done: true, reason: "nothing more to say" };
      return typeof next === "string" ? { message: next, done: false } : next;
    },
  };
}

const user = { persona: "A tester", goal: "Say three things and leave", maxTurns: 5 };

test("a simulated user plays turns after the opening ones until the flow completes, and success is graded on the stored state", async () => {
  const loaded = fakeScenario([{ label: "opening", input: "hello", expectedActiveStep: "AskStep" }], {
    user,
    success: { completed: true, finalState: { AskStep: { said: "hello" }, NextStep: { said: "bye" } } },
  });
  const simulated = sayingUser(["more", "bye", "never sent"]);
  const played = await playAgainstFake(loaded, {}, { user: simulated, steps: ["AskStep", "NextStep"] });
  assert.equal(played.outcome, "passed", played.final.failure);
  assert.deepEqual(
    played.turns.map((turn) => [turn.number, turn.label, turn.outcome, turn.simulated?.turn]),
    [
      [1, "opening", "passed", undefined],
      [2, "user: more", "passed", 1],
      [3, "user: bye", "passed", 2],
    ],
  );
  assert.deepEqual(played.final.simulation, {
    player: "test",
    userTurns: 2,
    end: { reason: "flow-completed", detail: "the flow completed on turn 3" },
  });
  assert.equal(checkNamed(played.final, "success.completed").outcome, "passed");
  assert.equal(checkNamed(played.final, "success.finalState.NextStep").outcome, "passed");
  // The user saw the opening turn and each answer, and its own profile with the defaults filled in.
  assert.deepEqual(simulated.asked[1]!.conversation, [
    { role: "user", content: "hello" },
    { role: "assistant", content: "You said: hello" },
    { role: "user", content: "more" },
    { role: "assistant", content: "You said: more" },
  ]);
  assert.deepEqual(simulated.asked[0]!.user, { ...user, facts: {}, style: "cooperative" });
  // Each simulated turn still had the contracts that need no expectation.
  const second = played.turns[1]!;
  for (const name of ["status", "flow", "step of the flow", "turns"])
    assert.equal(checkNamed(second, name).outcome, "passed", name);
  assert.equal(
    second.checks.some((c) => c.name === "expectedActiveStep" || c.name === "completed"),
    false,
  );
});

test("a finalState key the flow never stores fails the conversation, naming the key", async () => {
  const loaded = fakeScenario([], { user, success: { finalState: { AskStep: { city: "LA" } } } });
  const played = await playAgainstFake(loaded, {}, { user: sayingUser(["hello"]) });
  assert.equal(played.outcome, "failed");
  assert.match(checkNamed(played.final, "success.finalState.AskStep").message ?? "", /steps\.AskStep\.city/);
  assert.equal(played.final.simulation?.end.reason, "user-done");
  assert.equal(played.final.simulation?.end.detail, "nothing more to say");
});

test("a user that never says it is done ends at maxTurns, with that reason", async () => {
  const loaded = fakeScenario([], { user: { ...user, maxTurns: 3 }, success: { completed: false } });
  const played = await playAgainstFake(loaded, {}, { user: sayingUser(["a", "b", "c", "d", "e"]) });
  assert.equal(played.outcome, "passed", played.final.failure);
  assert.equal(played.turns.length, 3);
  assert.equal(played.final.simulation?.end.reason, "max-turns");
  assert.match(played.final.simulation?.end.detail ?? "", /3 messages \(maxTurns\)/);
});

test("a user whose model fails ends the conversation failed, saying what it sent", async () => {
  const failing: UserSimulator = {
    player: "test",
    next: async () => {
      throw new Error('the user model answered "not json" twice');
    },
  };
  const loaded = fakeScenario([{ label: "opening", input: "hello", expectedActiveStep: "AskStep" }], {
    user,
    success: { completed: true },
  });
  const played = await playAgainstFake(loaded, {}, { user: failing });
  assert.equal(played.outcome, "failed");
  assert.equal(played.final.simulation?.end.reason, "user-failed");
  assert.deepEqual(failures(played.final).slice(0, 1), ['user: the user model answered "not json" twice']);
});

test("without a simulated user the conversation fails with the reason there is none", async () => {
  const loaded = fakeScenario([], { user, success: { completed: true } });
  const played = await playAgainstFake(loaded, {}, { userUnavailable: "FakeFlow has no scripted user" });
  assert.equal(played.outcome, "failed");
  assert.equal(checkNamed(played.final, "user").message, "FakeFlow has no scripted user");
  assert.equal(played.turns.length, 0);
});

test("a forbidden phrase in a simulated turn's answer fails that turn, and the conversation ends there", async () => {
  const loaded = fakeScenario([], {
    user,
    success: { responseMustNotInclude: ["secret"], responseMustInclude: ["you said"] },
  });
  const played = await playAgainstFake(loaded, {}, { user: sayingUser(["fine", "the secret", "more"]) });
  assert.equal(played.outcome, "failed");
  assert.deepEqual(
    played.turns.map((turn) => turn.outcome),
    ["passed", "failed"],
  );
  assert.match(played.turns[1]!.failure ?? "", /the response contains "secret"/);
  assert.equal(played.final.simulation?.end.reason, "turn-failed");
});

test("success phrases are looked for across every answer of the conversation", async () => {
  const loaded = fakeScenario([], {
    user,
    success: { responseMustInclude: ["you said: first", "goodbye"], responseMustNotInclude: ["refund"] },
  });
  const played = await playAgainstFake(loaded, {}, { user: sayingUser(["first", "bye"]) });
  assert.equal(played.outcome, "passed", played.final.failure);
  const missing = await playAgainstFake(
    fakeScenario([], { user, success: { responseMustInclude: ["invoice"] } }),
    {},
    { user: sayingUser(["first"]) },
  );
  assert.equal(
    checkNamed(missing.final, "success.responseMustInclude[0]").message,
    'no answer of the conversation says "invoice"',
  );
});
