import assert from "node:assert/strict";
import { test } from "node:test";
import { RunArbiter, type Grant, type HoldSpec } from "../../../src/testing/limits/run-arbiter.ts";

/** Asks for a slot; `granted` is set once held, `release` gives it back (or withdraws the ask). */
function ask(arbiter: RunArbiter, spec: HoldSpec) {
  const slot: { granted: Grant | undefined; release: () => void; held: Promise<Grant> } = {
    granted: undefined,
    release: () => undefined,
    held: Promise.resolve({}),
  };
  slot.held = new Promise((resolve) => {
    slot.release = arbiter.hold(spec, (grant) => {
      slot.granted = grant;
      resolve(grant);
    });
  });
  return slot;
}

const conversation = (limit: number, maxTokens?: number): HoldSpec => ({ kind: "conversation", limit, maxTokens });
const request = (limit: number, extra: Partial<Extract<HoldSpec, { kind: "request" }>> = {}): HoldSpec => ({
  kind: "request",
  key: "http://127.0.0.1:1",
  limit,
  ...extra,
});

test("at most `limit` conversations are held at once, the next of equal weight granted first come first served as one is given back", () => {
  const arbiter = new RunArbiter();
  const slots = [1, 2, 3, 4].map(() => ask(arbiter, conversation(2)));
  assert.deepEqual(
    slots.map((slot) => slot.granted !== undefined),
    [true, true, false, false],
  );
  slots[0]!.release();
  assert.deepEqual(
    slots.map((slot) => slot.granted !== undefined),
    [true, true, true, false],
  );
  slots[3]!.release();
  slots[1]!.release();
  slots[2]!.release();
  assert.deepEqual(arbiter.summary().conversations, {
    key: "conversations",
    granted: 3,
    maxActive: 2,
    retries: 0,
    pauses: 0,
    skipped: 0,
  });
});

test("requests to one provider are held to their limit, with the SDK's retries counted; another provider has its own", () => {
  const arbiter = new RunArbiter();
  const first = [ask(arbiter, request(1)), ask(arbiter, request(1, { retry: true }))];
  const other = ask(arbiter, request(1, { key: "http://127.0.0.1:2" }));
  assert.deepEqual(
    [...first, other].map((slot) => slot.granted !== undefined),
    [true, false, true],
  );
  first[0]!.release();
  assert.ok(first[1]!.granted);
  for (const slot of [...first, other]) slot.release();
  assert.deepEqual(
    arbiter
      .summary()
      .providers.map((provider) => [provider.key, provider.granted, provider.maxActive, provider.retries]),
    [
      ["http://127.0.0.1:1", 2, 1, 1],
      ["http://127.0.0.1:2", 1, 1, 0],
    ],
  );
});

test("after a 429's pause no request to that provider is granted until the pause is over, however many slots are free", async () => {
  const arbiter = new RunArbiter();
  arbiter.note({ kind: "pause", key: "http://127.0.0.1:1", millis: 30 });
  const paused = ask(arbiter, request(8));
  const elsewhere = ask(arbiter, request(8, { key: "http://127.0.0.1:2" }));
  assert.equal(paused.granted, undefined);
  assert.ok(elsewhere.granted);
  assert.deepEqual(await paused.held, {});
  paused.release();
  elsewhere.release();
  assert.equal(arbiter.summary().providers[0]!.pauses, 1);
});

test("OPENAI_MAX_RPM: no more requests start in a minute than it allows; an ask withdrawn leaves nothing waiting", () => {
  const arbiter = new RunArbiter();
  const slots = [1, 2, 3].map(() => ask(arbiter, request(8, { rpm: 2 })));
  assert.deepEqual(
    slots.map((slot) => slot.granted !== undefined),
    [true, true, false],
  );
  slots[0]!.release();
  assert.equal(slots[2]!.granted, undefined, "a slot given back does not make room within the minute");
  for (const slot of slots) slot.release();
  assert.equal(arbiter.summary().providers[0]!.granted, 2);
});

test("once the tokens used reach FLOW_MAX_TOKENS, a conversation asked for is granted a skip saying so, and holds no slot", () => {
  const arbiter = new RunArbiter();
  const first = ask(arbiter, conversation(1, 100));
  const waiting = ask(arbiter, conversation(1, 100));
  arbiter.note({ kind: "tokens", scenario: "BasicFlow: a", input: 90, output: 20, price: { input: 1, output: 2 } });
  first.release();
  assert.deepEqual(waiting.granted, {
    skip: "FLOW_MAX_TOKENS=100 was reached (110 tokens used), so this conversation was not started",
  });
  assert.deepEqual(ask(arbiter, conversation(1, 100)).granted?.skip !== undefined, true);
  const summary = arbiter.summary();
  assert.deepEqual(summary.tokens, [{ scenario: "BasicFlow: a", input: 90, output: 20 }]);
  assert.deepEqual(summary.total, { input: 90, output: 20 });
  assert.deepEqual(summary.price, { input: 1, output: 2 });
  assert.equal(summary.conversations?.skipped, 2);
});

test("a freed conversation slot goes to the heaviest conversation waiting, the first asked among equals", () => {
  const arbiter = new RunArbiter();
  const weighed = (weight: number): HoldSpec => ({ kind: "conversation", limit: 1, weight });
  const first = ask(arbiter, weighed(2));
  const waiting = [weighed(3), weighed(20), weighed(8), weighed(20)].map((spec) => ask(arbiter, spec));
  const order: number[] = [];
  let held = first;
  for (let round = 0; round < waiting.length; round++) {
    held.release();
    held = waiting.find((slot) => slot.granted && !order.includes(waiting.indexOf(slot)))!;
    order.push(waiting.indexOf(held));
  }
  held.release();
  assert.deepEqual(order, [1, 3, 2, 0]);
});

test("told to await the suites' definitions, no conversation is granted until they are defined, then the heaviest first", () => {
  const arbiter = new RunArbiter();
  arbiter.awaitDefinitions(60_000);
  const light = ask(arbiter, { kind: "conversation", limit: 1, weight: 2 });
  const heavy = ask(arbiter, { kind: "conversation", limit: 1, weight: 17 });
  const requestSlot = ask(arbiter, request(1));
  assert.ok(requestSlot.granted, "requests are not held back");
  assert.deepEqual([light.granted, heavy.granted], [undefined, undefined]);
  arbiter.defined();
  assert.deepEqual([light.granted, heavy.granted], [undefined, {}]);
  heavy.release();
  assert.ok(light.granted);
  for (const slot of [light, requestSlot]) slot.release();
});

test("suites that are never said to be defined hold the conversations back no longer than the bound", async () => {
  const arbiter = new RunArbiter();
  arbiter.awaitDefinitions(20);
  const slot = ask(arbiter, { kind: "conversation", limit: 1, weight: 1 });
  assert.equal(slot.granted, undefined);
  // The arbiter's timer does not hold a process open; this one does, past the bound.
  await new Promise((resolve) => setTimeout(resolve, 60));
  assert.deepEqual(slot.granted, {});
  slot.release();
});

test("a suite the run does not own is held to the same limits, and spends the same budget, but is left out of the summary", () => {
  const arbiter = new RunArbiter();
  const outside = ask(arbiter, request(1, { uncounted: true, retry: true }));
  const own = ask(arbiter, request(1));
  assert.deepEqual([outside.granted !== undefined, own.granted !== undefined], [true, false]);
  outside.release();
  assert.ok(own.granted, "the run's own request is granted once the other gives its slot back");
  own.release();
  arbiter.note({ kind: "pause", key: "http://127.0.0.1:1", millis: 0, uncounted: true });
  arbiter.note({ kind: "tokens", scenario: "Fixture: f1", input: 600, output: 0, uncounted: true });
  arbiter.note({ kind: "tokens", scenario: "BasicFlow: o1", input: 300, output: 100 });
  const skipped = ask(arbiter, { kind: "conversation", limit: 1, maxTokens: 1000, uncounted: true });
  assert.match(skipped.granted?.skip ?? "", /\(1000 tokens used\)/);
  const summary = arbiter.summary();
  assert.deepEqual(summary.providers, [
    { key: "http://127.0.0.1:1", granted: 1, maxActive: 1, retries: 0, pauses: 0, skipped: 0 },
  ]);
  assert.deepEqual(summary.conversations?.skipped, 0);
  assert.deepEqual(summary.tokens, [{ scenario: "BasicFlow: o1", input: 300, output: 100 }]);
  assert.deepEqual(summary.total, { input: 300, output: 100 });
});
