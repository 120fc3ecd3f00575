import assert from "node:assert/strict";
import { setImmediate } from "node:timers/promises";
import { test } from "node:test";
import { scriptedText } from "../../../src/engine/scripted-model.ts";
import type { SeamOutcome, SeamSource } from "../../../src/testing/seam/seam-call.ts";
import { SeamConversations } from "../../../src/testing/seam/seam-conversations.ts";
import { seamCall, user } from "../../support/seam-call-builder.ts";

/** A source that answers with its conversation's name, so an answer shows who it was credited to. */
function namedSource(name: string): SeamSource {
  return async () => ({ reply: scriptedText(`answered by ${name}`) });
}

function contentOf(outcome: SeamOutcome): string {
  assert.ok("reply" in outcome, `expected a reply, got ${JSON.stringify(outcome)}`);
  return outcome.reply.content;
}

/** Opens a conversation and plays these turns at the seam without calls, leaving the last one in flight. */
async function conversationAt(ledger: SeamConversations, name: string, inputs: string[]) {
  const conversation = ledger.open({ target: "desk", flow: "booking", label: name, source: namedSource(name) });
  for (const [index, input] of inputs.entries()) {
    if (index > 0) conversation.endTurn();
    await conversation.beginTurn({ number: index + 1, label: `turn ${index + 1}`, input });
  }
  return conversation;
}

test("three conversations in flight: each call is credited to the turn whose input and earlier inputs it carries", async () => {
  const ledger = new SeamConversations();
  const first = await conversationAt(ledger, "first", ["Hi", "Two nights"]);
  // "Hi" again, begun once the first conversation's "Hi" turn has ended.
  const second = await conversationAt(ledger, "second", ["Hi", "Three nights"]);
  const third = await conversationAt(ledger, "third", ["Hello", "One night"]);
  const answers = await Promise.all([
    ledger.answer(seamCall([user("Hi"), user("Three nights")])),
    ledger.answer(seamCall([user("Hello"), user("One night")])),
    ledger.answer(seamCall([user("Hi"), { role: "assistant", content: "Hello!" }, user("Two  nights ")])),
  ]);
  assert.deepEqual(answers.map(contentOf), ["answered by second", "answered by third", "answered by first"]);
  for (const conversation of [first, second, third]) assert.equal(conversation.endTurn().calls, 1);
  assert.deepEqual(ledger.uncredited(), []);
});

test("a call carrying another conversation's history is not credited to a turn with its input", async () => {
  const ledger = new SeamConversations();
  const first = await conversationAt(ledger, "first", ["Hi", "Two nights"]);
  const outcome = await ledger.answer(seamCall([user("Hello"), user("Two nights")]));
  assert.equal("refused" in outcome && outcome.code, "seam_uncredited");
  assert.equal(first.endTurn().calls, 0);
});

test("a call leaving out a refused turn's message is credited, its earlier messages a subsequence of the inputs", async () => {
  const ledger = new SeamConversations();
  const conversation = await conversationAt(ledger, "desk", ["Hi", "asdf qwerty", "Two nights"]);
  assert.equal(contentOf(await ledger.answer(seamCall([user("Hi"), user("Two nights")]))), "answered by desk");
  const reordered = await ledger.answer(seamCall([user("asdf qwerty"), user("Hi"), user("Two nights")]));
  assert.ok("refused" in reordered, "a call whose earlier messages are out of order was credited");
  assert.equal(conversation.endTurn().calls, 1);
});

test("a turn with the input of another conversation's turn in flight begins when that turn ends, one waiter at a time", async () => {
  const ledger = new SeamConversations();
  const first = await conversationAt(ledger, "first", ["Yes"]);
  const waiting = ["second", "third"].map((name) => {
    const conversation = ledger.open({ target: "desk", flow: "booking", label: name, source: namedSource(name) });
    let begun = false;
    const begin = conversation.beginTurn({ number: 1, label: "agrees", input: "  Yes " });
    void begin.then(() => {
      begun = true;
    });
    return { conversation, begin, begun: () => begun };
  });
  await setImmediate();
  assert.deepEqual(
    waiting.map((one) => one.begun()),
    [false, false],
  );
  assert.equal(contentOf(await ledger.answer(seamCall([user("Yes")]))), "answered by first");
  first.endTurn();
  await setImmediate();
  assert.deepEqual(
    waiting.map((one) => one.begun()),
    [true, false],
  );
  assert.equal(contentOf(await ledger.answer(seamCall([user("Yes")]))), "answered by second");
  waiting[0]?.conversation.endTurn();
  await waiting[1]?.begin;
  assert.equal(contentOf(await ledger.answer(seamCall([user("Yes")]))), "answered by third");
  waiting[1]?.conversation.close();
});

// Without the rule, the next turn would wait for ever: the timeout turns that into a failure.
test("a conversation closed while its turn waits never holds that input", { timeout: 5000 }, async () => {
  const ledger = new SeamConversations();
  const first = await conversationAt(ledger, "first", ["Yes"]);
  const [closed, next] = ["closed", "next"].map((name) =>
    ledger.open({ target: "desk", flow: "booking", label: name, source: namedSource(name) }),
  );
  assert.ok(closed && next);
  const waited = closed.beginTurn({ number: 1, label: "agrees", input: "Yes" });
  closed.close();
  first.endTurn();
  await waited;
  await next.beginTurn({ number: 1, label: "agrees", input: "Yes" });
  assert.equal(contentOf(await ledger.answer(seamCall([user("Yes")]))), "answered by next");
  next.close();
});

test("a call no turn in flight can be credited with is refused and fails the turns in flight, or made between turns the next one", async () => {
  const ledger = new SeamConversations();
  const conversation = await conversationAt(ledger, "booking: two nights", ["Hi"]);
  const outcome = await ledger.answer(seamCall([user("Three nights")], { api: "responses", model: "gpt-5-mini" }));
  assert.equal("refused" in outcome && outcome.code, "seam_uncredited");
  const [problem, ...more] = ledger.uncredited();
  assert.deepEqual(more, []);
  assert.match(problem ?? "", /A responses call of the app \(model gpt-5-mini\)/);
  assert.match(problem ?? "", /last user message is "Three nights"/);
  assert.match(problem ?? "", /turns in flight are: booking: two nights turn 1 "turn 1" \(input "Hi"\)/);
  assert.deepEqual(conversation.endTurn().problems, [problem]);
  await ledger.answer(seamCall([user("Hi")]));
  assert.match(ledger.uncredited()[1] ?? "", /turns in flight are: none/);
  await conversation.beginTurn({ number: 2, label: "next", input: "Later" });
  const [between] = conversation.endTurn().problems;
  assert.match(between ?? "", /^before this turn, A chat call of the app .*turns in flight are: none/);
  conversation.close();
});

test("a call the seam does not speak is credited, refused and fails its turn; uncredited, the run's problem names what it asked", async () => {
  const ledger = new SeamConversations();
  const conversation = await conversationAt(ledger, "desk", ["Hi"]);
  const unsupported = "n: 2 asks for two choices; the seam answers one";
  const outcome = await ledger.answer(seamCall([user("Hi")], { unsupported }));
  assert.deepEqual(outcome, { refused: unsupported, code: "seam_unsupported" });
  // Sent again with the same body: a retry, neither a call nor a problem of its own.
  assert.deepEqual(await ledger.answer(seamCall([user("Hi")], { unsupported })), outcome);
  const record = conversation.endTurn();
  assert.equal(record.calls, 1);
  assert.deepEqual(record.problems, [
    `model call 1 (chat, model gpt-test) asked for what the seam does not speak: ${unsupported}`,
  ]);
  assert.deepEqual(ledger.uncredited(), []);
  await ledger.answer(seamCall([user("Hi")], { unsupported }));
  assert.match(
    ledger.uncredited()[0] ?? "",
    /The call also asked for what the seam does not speak: n: 2 asks for two choices/,
  );
});
