import assert from "node:assert/strict";
import { test } from "node:test";
import { scriptedText, scriptedToolCalls } from "../../../src/engine/scripted-model.ts";
import type { SeamOutcome } from "../../../src/testing/seam/seam-call.ts";
import type { SeamMessage, SeamScript } from "../../../src/testing/seam/seam-request.ts";
import { SeamConversations } from "../../../src/testing/seam/seam-conversations.ts";
import { scriptedSource } from "../../../src/testing/seam/scripted-source.ts";
import { seamCall, user } from "../../support/seam-call-builder.ts";

/** Asks for findRoom on the user's message, answers in text once a tool's result is back. */
const findThenAnswer: SeamScript = ({ latest }) =>
  latest?.role === "user"
    ? scriptedToolCalls([{ name: "findRoom", args: { nights: 2 } }])
    : scriptedText("Room 12 is free.");

function toolCallsOf(outcome: SeamOutcome) {
  assert.ok("reply" in outcome, `expected a reply, got ${JSON.stringify(outcome)}`);
  return outcome.reply.toolCalls;
}

function toolResult(toolCallId: string, name: string, content: string): SeamMessage {
  return { role: "tool", toolCallId, name, content };
}

/** Two turns of a conversation, each asking for findRoom and then answering with its result: the ids given. */
async function twoTurnIds(): Promise<string[]> {
  const ledger = new SeamConversations();
  const conversation = ledger.open({
    target: "desk",
    flow: "booking",
    label: "booking",
    source: scriptedSource(findThenAnswer),
  });
  const ids: string[] = [];
  const history: SeamMessage[] = [];
  for (const [index, input] of ["Two nights", "And two more"].entries()) {
    await conversation.beginTurn({ number: index + 1, label: `turn ${index + 1}`, input });
    history.push(user(input));
    const [asked] = toolCallsOf(await ledger.answer(seamCall(history)));
    assert.ok(asked);
    ids.push(asked.id);
    history.push(
      { role: "assistant", content: "", toolCalls: [asked] },
      toolResult(asked.id, "findRoom", '{"room":12}'),
    );
    await ledger.answer(seamCall(history));
    history.push({ role: "assistant", content: "Room 12 is free." });
    conversation.endTurn();
  }
  return ids;
}

test("tool-call ids are unique within a conversation across turns, and the same from run to run", async () => {
  const ids = await twoTurnIds();
  assert.deepEqual(ids, ["call_1_findRoom", "call_3_findRoom"]);
  assert.deepEqual(await twoTurnIds(), ids);
});

test("two calls of one tool in one reply get ids of their own", async () => {
  const script: SeamScript = () =>
    scriptedToolCalls([
      { name: "findRoom", args: { nights: 2 } },
      { name: "findRoom", args: { nights: 3 } },
    ]);
  const ledger = new SeamConversations();
  const conversation = ledger.open({
    target: "desk",
    flow: "booking",
    label: "booking",
    source: scriptedSource(script),
  });
  await conversation.beginTurn({ number: 1, label: "asks", input: "Two or three nights?" });
  const asked = toolCallsOf(await ledger.answer(seamCall([user("Two or three nights?")])));
  assert.deepEqual(
    asked.map((call) => call.id),
    ["call_1_findRoom", "call_1_findRoom_2"],
  );
  conversation.close();
});

test("a turn's tool calls are paired with the outputs the app sends back in its later calls, an output that is only an error failed, an unanswered one pending", async () => {
  const script: SeamScript = ({ messages }) => {
    const results = messages.filter((message) => message.role === "tool").length;
    if (results === 0)
      return scriptedToolCalls([
        { name: "findRoom", args: { nights: 2 } },
        { name: "holdRoom", args: { room: 12 } },
      ]);
    return results === 2 ? scriptedToolCalls([{ name: "bookRoom", args: { room: 12 } }]) : scriptedText("Booked.");
  };
  const ledger = new SeamConversations();
  const conversation = ledger.open({
    target: "desk",
    flow: "booking",
    label: "booking",
    source: scriptedSource(script),
  });
  await conversation.beginTurn({ number: 1, label: "books", input: "Book two nights" });
  const history: SeamMessage[] = [user("Book two nights")];
  const first = toolCallsOf(await ledger.answer(seamCall(history)));
  history.push(
    { role: "assistant", content: "", toolCalls: first },
    toolResult("call_1_findRoom", "findRoom", '{"room":12}'),
  );
  assert.deepEqual(toolCallsOf(await ledger.answer(seamCall(history))), []);
  history.push(
    { role: "assistant", content: "Room 12." },
    toolResult("call_1_holdRoom", "holdRoom", '{"error":"Error: room 12 is taken"}'),
  );
  const booked = toolCallsOf(await ledger.answer(seamCall(history)));
  assert.deepEqual(
    booked.map((call) => call.id),
    ["call_3_bookRoom"],
  );
  const record = conversation.endTurn();
  assert.equal(record.calls, 3);
  assert.deepEqual(record.problems, []);
  assert.deepEqual(record.toolCalls, [
    { name: "findRoom", args: { nights: 2 }, output: { room: 12 }, status: "returned", id: "call_1_findRoom" },
    {
      name: "holdRoom",
      args: { room: 12 },
      output: { error: "Error: room 12 is taken" },
      status: "failed",
      id: "call_1_holdRoom",
    },
    { name: "bookRoom", args: { room: 12 }, status: "pending", id: "call_3_bookRoom" },
  ]);
});

test("a tool result in LangGraph ToolNode's text for a tool that threw fails the call, its text the error, as the agent's thread says", async () => {
  const ledger = new SeamConversations();
  const conversation = ledger.open({
    target: "tables",
    flow: "agent",
    label: "agent",
    source: scriptedSource(findThenAnswer),
  });
  await conversation.beginTurn({ number: 1, label: "cannot find", input: "Two nights" });
  const history: SeamMessage[] = [user("Two nights")];
  const asked = toolCallsOf(await ledger.answer(seamCall(history)));
  const error = "Error: no room for 2 nights\n Please fix your mistakes.";
  history.push({ role: "assistant", content: "", toolCalls: asked }, toolResult("call_1_findRoom", "findRoom", error));
  await ledger.answer(seamCall(history));
  assert.deepEqual(conversation.endTurn().toolCalls, [
    { name: "findRoom", args: { nights: 2 }, output: { error }, status: "failed", id: "call_1_findRoom" },
  ]);
});

test("a script that has no answer fails the turn with script_unmatched, and its call is refused with that code", async () => {
  const ledger = new SeamConversations();
  const conversation = ledger.open({
    target: "desk",
    flow: "booking",
    label: "booking",
    source: scriptedSource(() => undefined, "test/desk-model.ts"),
  });
  await conversation.beginTurn({ number: 1, label: "asks", input: "Two nights" });
  const outcome = await ledger.answer(seamCall([user("Two nights")]));
  assert.ok("refused" in outcome);
  assert.equal(outcome.code, "script_unmatched");
  const { problems, calls } = conversation.endTurn();
  assert.equal(calls, 1);
  assert.equal(problems.length, 1);
  assert.match(
    problems[0] ?? "",
    /^model call 1 \(chat, model gpt-test\): script_unmatched: The scripted model of target desk/,
  );
  assert.ok(problems[0]?.endsWith(outcome.refused));
});
