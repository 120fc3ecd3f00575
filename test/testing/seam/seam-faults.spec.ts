import assert from "node:assert/strict";
import { test } from "node:test";
import type { ModelReply } from "../../../src/engine/chat-model.ts";
import { scriptedText, scriptedToolCalls } from "../../../src/engine/scripted-model.ts";
import type { SeamCall, SeamOutcome } from "../../../src/testing/seam/seam-call.ts";
import type { SeamConversation } from "../../../src/testing/seam/seam-conversation.ts";
import { SeamConversations } from "../../../src/testing/seam/seam-conversations.ts";
import type { SeamTurnRecord } from "../../../src/testing/seam/seam-turn.ts";
import type { ModelFault } from "../../../src/testing/scenario/scenario.ts";
import { seamCall, user } from "../../support/seam-call-builder.ts";

const INPUT = "Book two nights";

/** A turn whose fault is `fault`, its source answering `reply` and counting how often it was asked. */
async function faultedTurn(fault: ModelFault, reply: ModelReply = scriptedText("Room 12 is booked for two nights.")) {
  const ledger = new SeamConversations();
  let asked = 0;
  const source = async () => {
    asked += 1;
    return { reply, usage: { input: 40, output: 9 } };
  };
  const conversation: SeamConversation = ledger.open({ target: "desk", flow: "booking", label: "booking", source });
  await conversation.beginTurn({ number: 1, label: "books", input: INPUT, fault });
  return {
    /** Answers call `n` of the turn (its body tells it from the others); the same `n` again is its retry. */
    call: (n: number, options: Parameters<typeof seamCall>[1] = {}): Promise<SeamOutcome> =>
      ledger.answer(seamCall(callMessages(n), options)),
    asked: () => asked,
    end: (): SeamTurnRecord => conversation.endTurn(),
  };
}

/** The messages of call `n` of a turn: the input, then a tool's result for each call before it. */
function callMessages(n: number): SeamCall["request"]["messages"] {
  return [
    user(INPUT),
    ...Array.from({ length: n - 1 }, (_, index) => ({
      role: "tool" as const,
      toolCallId: `call_${index + 1}_findRoom`,
      name: "findRoom",
      content: "{}",
    })),
  ];
}

test("an error fault answers call N and its retries with a 500; the calls before and after are served", async () => {
  const turn = await faultedTurn({ call: 2, kind: "error" });
  assert.ok("reply" in (await turn.call(1)));
  assert.deepEqual(await turn.call(2), { fault: "error" });
  assert.deepEqual(await turn.call(2), { fault: "error" });
  assert.deepEqual(await turn.call(2), { fault: "error" });
  assert.ok("reply" in (await turn.call(3)));
  assert.equal(turn.asked(), 2, "the source was asked for a faulted call");
  assert.equal(turn.end().calls, 3, "retries were counted as calls");
});

test("a timeout fault holds call N and its retries for holdMs, 2000 unless the fault says", async () => {
  const held = await faultedTurn({ call: 1, kind: "timeout", holdMs: 150 });
  assert.deepEqual(await held.call(1), { fault: "timeout", holdMs: 150 });
  assert.deepEqual(await held.call(1), { fault: "timeout", holdMs: 150 });
  assert.equal(held.end().calls, 1);
  const byDefault = await faultedTurn({ call: 1, kind: "timeout" });
  assert.deepEqual(await byDefault.call(1), { fault: "timeout", holdMs: 2000 });
  assert.equal(byDefault.asked(), 0);
});

test("a rate-limit fault answers call N once with a 429, and its retry is served", async () => {
  const turn = await faultedTurn({ call: 1, kind: "rate-limit" });
  assert.deepEqual(await turn.call(1), { fault: "rate-limit" });
  const retried = await turn.call(1);
  assert.ok("reply" in retried);
  assert.equal(retried.reply.content, "Room 12 is booked for two nights.");
  assert.ok("reply" in (await turn.call(2)));
  assert.equal(turn.end().calls, 2);
});

test("a malformed-tool-call fault cuts the arguments of the reply's tool call so they are no longer JSON", async () => {
  const turn = await faultedTurn(
    { call: 1, kind: "malformed-tool-call" },
    scriptedToolCalls([{ name: "findRoom", args: { nights: 2 } }]),
  );
  const outcome = await turn.call(1);
  assert.ok("reply" in outcome);
  const [toolCall] = outcome.reply.toolCalls;
  assert.equal(toolCall?.arguments, '{"nights":2');
  assert.throws(() => JSON.parse(toolCall?.arguments ?? ""), SyntaxError);
  const record = turn.end();
  assert.deepEqual(record.problems, []);
  assert.deepEqual(record.toolCalls, [
    { name: "findRoom", args: '{"nights":2', status: "pending", id: "call_1_findRoom" },
  ]);
});

test("a malformed-tool-call fault on a text reply answers a broken call to the first tool the app offered", async () => {
  const turn = await faultedTurn({ call: 1, kind: "malformed-tool-call" });
  const outcome = await turn.call(1);
  assert.ok("reply" in outcome);
  assert.deepEqual(outcome.reply.toolCalls, [{ id: "call_1_findRoom", name: "findRoom", arguments: "{" }]);
  assert.equal(outcome.reply.content, "Room 12 is booked for two nights.");
});

test("a malformed-tool-call fault on a call that offers no tools fails the turn saying so, the reply untouched", async () => {
  const turn = await faultedTurn({ call: 1, kind: "malformed-tool-call" });
  const outcome = await turn.call(1, { tools: [] });
  assert.ok("reply" in outcome);
  assert.deepEqual(outcome.reply.toolCalls, []);
  const [problem] = turn.end().problems;
  assert.match(
    problem ?? "",
    /^model call 1 \(chat, model gpt-test\): the turn's modelFault "malformed-tool-call" needs a tool call/,
  );
  assert.match(problem ?? "", /the app offered no tools/);
});

test("a truncated fault answers call N cut to about half its text, without tool calls, marked truncated", async () => {
  const reply = {
    content: "Room 12 is booked for two nights.",
    toolCalls: scriptedToolCalls([{ name: "findRoom", args: {} }]).toolCalls,
  };
  const turn = await faultedTurn({ call: 1, kind: "truncated" }, reply);
  const outcome = await turn.call(1);
  assert.deepEqual(outcome, {
    reply: { content: "Room 12 is booked", toolCalls: [] },
    truncated: true,
    usage: { input: 40, output: 9 },
  });
  assert.deepEqual(turn.end().toolCalls, []);
});

test("a fault counts the turn's distinct calls: a call repeating the previous body is its retry, not the next call", async () => {
  const turn = await faultedTurn({ call: 2, kind: "error" });
  assert.ok("reply" in (await turn.call(1)));
  assert.ok("reply" in (await turn.call(1)), "the retry of call 1 was taken for call 2");
  assert.deepEqual(await turn.call(2), { fault: "error" });
  assert.equal(turn.end().calls, 2);
});
