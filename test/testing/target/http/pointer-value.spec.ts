import assert from "node:assert/strict";
import { test } from "node:test";
import { pointerBoolean, pointerString, pointerValue } from "../../../../src/testing/target/http/pointer-value.ts";

const WHAT = "POST http://127.0.0.1:1/chat answered 200, but targets.shop.answer.step (the current step)";

test("the value at the pointer is returned, whatever its type", () => {
  assert.deepEqual(pointerValue({ a: { b: [1, { c: null }] } }, "/a/b/1", WHAT), { c: null });
  assert.equal(pointerValue({ a: 0 }, "/a", WHAT), 0);
});

test("a pointer that finds nothing is target_invalid_answer naming what it was for and the pointer, quoting the body", () => {
  assert.throws(() => pointerValue({ flow: { current: "NameStep" } }, "/flow/step", WHAT), {
    code: "target_invalid_answer",
    message:
      `${WHAT}: the pointer "/flow/step" finds nothing in the body {"flow":{"current":"NameStep"}}. ` +
      "Fix the pointer in flowcheck.config.json: a JSON Pointer (RFC 6901) to where the body holds it, such as /data/step.",
  });
});

test("a long body is quoted cut to 300 characters", () => {
  const body = { text: "x".repeat(1000) };
  assert.throws(
    () => pointerValue(body, "/step", WHAT),
    (error: Error) => {
      const quoted = /in the body (.*)\. Fix/.exec(error.message)?.[1] ?? "";
      assert.equal(quoted, `${JSON.stringify(body).slice(0, 300)}…`);
      return true;
    },
  );
});

test("a string pointer takes a string or a number's digits, and names what it found otherwise", () => {
  assert.equal(pointerString({ id: "s-1" }, "/id", WHAT), "s-1");
  assert.equal(pointerString({ id: 17 }, "/id", WHAT), "17");
  assert.throws(() => pointerString({ id: { value: 1 } }, "/id", WHAT), {
    code: "target_invalid_answer",
    message: `${WHAT}: the pointer "/id" finds {"value":1}, not a string, in the body {"id":{"value":1}}. Fix the pointer in flowcheck.config.json: a JSON Pointer (RFC 6901) to where the body holds it, such as /data/step.`,
  });
});

test("a boolean pointer takes true or false only", () => {
  assert.equal(pointerBoolean({ done: false }, "/done", WHAT), false);
  assert.throws(() => pointerBoolean({ done: "yes" }, "/done", WHAT), {
    code: "target_invalid_answer",
    message: /the pointer "\/done" finds "yes", not true or false/,
  });
});
