import assert from "node:assert/strict";
import { setImmediate as turn } from "node:timers/promises";
import { test } from "node:test";
import type { TestEvent } from "node:test/reporters";
import { mergedTestEvents } from "../../src/cli/merged-test-events.ts";

/** The events node:test tells of one top-level test of `file`, with a nested one, as it runs in one process. */
function topLevel(file: string, name: string, testNumber: number, passed = true): TestEvent[] {
  const at = { file, line: 1, column: 1 };
  const details = { duration_ms: 1, ...(passed ? {} : { error: new Error(`${name} failed`) }) };
  return [
    { type: "test:enqueue", data: { ...at, name, nesting: 0 } },
    { type: "test:dequeue", data: { ...at, name, nesting: 0 } },
    { type: "test:start", data: { ...at, name, nesting: 0 } },
    { type: "test:start", data: { ...at, name: `${name} inner`, nesting: 1 } },
    { type: "test:pass", data: { ...at, name: `${name} inner`, nesting: 1, testNumber: 1, details } },
    { type: "test:plan", data: { ...at, nesting: 1, count: 1 } },
    { type: passed ? "test:pass" : "test:fail", data: { ...at, name, nesting: 0, testNumber, details } },
  ] as TestEvent[];
}

/** What node:test's root tells at the end of one process's run. */
function rootTail(tests: number, failed: number, durationMillis: number): TestEvent[] {
  const counts = { tests, suites: 0, pass: tests - failed, fail: failed, cancelled: 0, skipped: 0, todo: 0 };
  return [
    { type: "test:plan", data: { nesting: 0, count: tests / 2 } },
    ...Object.entries({ ...counts, duration_ms: durationMillis }).map(([key, value]) => ({
      type: "test:diagnostic",
      data: { nesting: 0, message: `${key} ${value}`, level: "info" },
    })),
    {
      type: "test:summary",
      data: {
        counts: {
          tests,
          suites: 0,
          passed: tests - failed,
          failed,
          cancelled: 0,
          skipped: 0,
          todo: 0,
          topLevel: tests / 2,
        },
        duration_ms: durationMillis,
        file: undefined,
        success: failed === 0,
      },
    },
  ] as TestEvent[];
}

/** `events` told one at a time, each after a turn of the event loop, so two sources interleave. */
async function* slowly(events: readonly TestEvent[]): AsyncGenerator<TestEvent> {
  for (const event of events) {
    await turn();
    yield event;
  }
}

test("the events of two processes are told as one run's: each top-level test's events together, numbered again, the counts and summary told once, added up", async () => {
  const own = [...topLevel("/a.spec.ts", "a1", 1), ...topLevel("/a.spec.ts", "a2", 2), ...rootTail(4, 0, 900)];
  const other = [...topLevel("/b.spec.ts", "b1", 1, false), ...rootTail(2, 1, 1200)];

  const merged: TestEvent[] = await mergedTestEvents([slowly(own), slowly(other)]).toArray();

  // Each top-level test's seven events stay in a row, whichever process told them.
  const body = merged.slice(0, 21);
  for (let at = 0; at < body.length; at += 7) {
    const named = body.slice(at, at + 7).map((event) => (event.data as { name?: string }).name);
    const names = new Set(named.flatMap((name) => (name === undefined ? [] : [name.slice(0, 2)])));
    assert.equal(names.size, 1, `events ${at}–${at + 6}: ${[...names].join(", ")}`);
  }
  const ends = body.filter(
    (event) => (event.type === "test:pass" || event.type === "test:fail") && event.data.nesting === 0,
  );
  assert.deepEqual(
    ends.map((event) => (event.data as { testNumber: number }).testNumber),
    [1, 2, 3],
  );
  assert.deepEqual(new Set(ends.map((event) => (event.data as { name: string }).name)), new Set(["a1", "a2", "b1"]));
  // The nested tests keep their numbers, under their parents.
  assert.ok(
    body.every((event) => event.type !== "test:pass" || event.data.nesting === 0 || event.data.testNumber === 1),
  );

  const tail = merged.slice(21);
  assert.deepEqual(
    tail.map((event) => (event.type === "test:diagnostic" ? event.data.message : event.type)),
    [
      "test:plan",
      "tests 6",
      "suites 0",
      "pass 5",
      "fail 1",
      "cancelled 0",
      "skipped 0",
      "todo 0",
      "duration_ms 1200",
      "test:summary",
    ],
  );
  assert.deepEqual(tail[0]!.data, { nesting: 0, count: 3 });
  const summary = tail.at(-1)!.data as Extract<TestEvent, { type: "test:summary" }>["data"];
  assert.equal(summary.success, false);
  assert.equal(summary.duration_ms, 1200);
  assert.deepEqual(summary.counts, {
    tests: 6,
    suites: 0,
    passed: 5,
    failed: 1,
    cancelled: 0,
    skipped: 0,
    todo: 0,
    topLevel: 3,
  });
});

test("a run whose processes all passed is a success; one that told no summary is not", async () => {
  const passing = [...topLevel("/a.spec.ts", "a1", 1), ...rootTail(2, 0, 10)];
  const summaryOf = async (sources: TestEvent[][]) => {
    const merged: TestEvent[] = await mergedTestEvents(sources.map((events) => slowly(events))).toArray();
    return merged.at(-1)!.data as { success: boolean };
  };

  assert.equal((await summaryOf([passing, passing])).success, true);
  assert.equal((await summaryOf([passing, topLevel("/b.spec.ts", "b1", 1)])).success, false);
});
