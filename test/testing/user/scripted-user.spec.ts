import assert from "node:assert/strict";
import { test } from "node:test";
import type { ScriptedUser, UserTurnRequest } from "../../../src/engine/scripted-user.ts";
import { isFlowcheckError } from "../../../src/errors.ts";
import { scriptedUser } from "../../../src/testing/user/scripted-user.ts";

const request = (conversation: UserTurnRequest["conversation"]): UserTurnRequest => ({
  user: {
    persona: `Ada, a retired engineer ${"who likes long stories ".repeat(5)}`,
    goal: "a double room in Lisbon",
    facts: {},
    style: "cooperative",
    maxTurns: 4,
  },
  conversation,
  turn: conversation.filter((message) => message.role === "user").length + 1,
});

const script: ScriptedUser = ({ conversation }) =>
  conversation.length === 0 ? { message: "I need a room in Lisbon", done: false } : undefined;

test("the scripted user answers from the flow's script, as the player `scripted`", async () => {
  const simulator = scriptedUser(script, "HotelFlow");
  assert.equal(simulator.player, "scripted");
  assert.deepEqual(await simulator.next(request([])), { message: "I need a room in Lisbon", done: false });
});

test("a script with no answer fails naming the flow, the user, the assistant's last answer and what to do", async () => {
  const conversation = [
    { role: "user", content: "I need a room in Lisbon" },
    { role: "assistant", content: "Which dates?" },
  ] as const;
  await assert.rejects(scriptedUser(script, "HotelFlow").next(request([...conversation])), (error: Error) => {
    assert.ok(isFlowcheckError(error, "user_script_unmatched"), String(error));
    assert.match(
      error.message,
      /^HotelFlow's scripted user has no message 2 for the user "Ada, a retired engineer who/,
    );
    assert.match(
      error.message,
      /stories who likes lo… whose goal is "a double room in Lisbon"; the assistant last said "Which dates\?"\./,
    );
    assert.match(
      error.message,
      /Add a branch for this conversation to the scripted user of HotelFlow \(the `user` of its FlowEntry\)/,
    );
    assert.match(error.message, /or run with FLOW_MODEL=live/);
    return true;
  });
});

test("a script with no answer for the opening message says the assistant has said nothing yet", async () => {
  await assert.rejects(
    scriptedUser(() => undefined, "HotelFlow").next(request([])),
    /the assistant last said nothing yet\./,
  );
});
