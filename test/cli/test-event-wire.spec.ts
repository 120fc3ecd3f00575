import assert from "node:assert/strict";
import { test } from "node:test";
import type { TestEvent } from "node:test/reporters";
import { inspect } from "node:util";
import { fromWire, toWire } from "../../src/cli/test-event-wire.ts";

/** A failure as node:test reports it: its own error, its code and failure type, the assertion in its cause. */
function failure(): TestEvent {
  let assertion: unknown;
  try {
    assert.deepEqual({ a: 1, b: [1, 2] }, { a: 2, b: [1, 3] });
  } catch (error) {
    assertion = error;
  }
  const error = Object.assign(new Error("test failed"), { code: "ERR_TEST_FAILURE", failureType: "testCodeFailure" });
  Object.defineProperty(error, "cause", { value: assertion, enumerable: false, writable: true, configurable: true });
  return {
    type: "test:fail",
    data: { name: "x", nesting: 0, testNumber: 1, details: { duration_ms: 1, error } },
  } as TestEvent;
}

const errorOf = (event: TestEvent) => (event.data as { details: { error: Error } }).details.error;

test("a failure sent to another process prints there as it prints here: the assertion's diff, code, values and the wrapper's properties", () => {
  const event = failure();

  const received = fromWire(structuredClone(toWire(event)));

  const sent = errorOf(event);
  const got = errorOf(received);
  assert.equal(inspect(got), inspect(sent));
  assert.equal(inspect(got.cause), inspect(sent.cause));
  assert.ok(got.cause instanceof assert.AssertionError);
  assert.equal((got as Error & { failureType?: string }).failureType, "testCodeFailure");
});

test("an event without an error goes as it is; a value structured clone cannot carry goes as it prints", () => {
  const passed = {
    type: "test:pass",
    data: { name: "y", nesting: 0, testNumber: 1, details: { duration_ms: 1 } },
  } as TestEvent;
  assert.equal(toWire(passed), passed);
  const error = Object.assign(new Error("odd"), { actual: () => 1 });
  const failed = { ...failure(), data: { ...failure().data, details: { duration_ms: 1, error } } } as TestEvent;

  const received = fromWire(structuredClone(toWire(failed)));

  assert.equal((errorOf(received) as Error & { actual: unknown }).actual, "[Function: actual]");
});
