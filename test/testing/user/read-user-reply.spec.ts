import assert from "node:assert/strict";
import { test } from "node:test";
import { readUserReply } from "../../../src/testing/user/read-user-reply.ts";

test("a reply that is JSON but not an object is refused, quoting it", () => {
  assert.deepEqual(readUserReply('["lisbon"]'), {
    problem: 'the reply is not a JSON object; it sent "[\\"lisbon\\"]".',
  });
  assert.deepEqual(readUserReply("null"), { problem: 'the reply is not a JSON object; it sent "null".' });
});

test("every problem of an object's fields is told at once", () => {
  const read = readUserReply(JSON.stringify({ message: 3, done: "yes", reason: 1 }));
  assert.ok("problem" in read);
  assert.match(
    read.problem,
    /^"message" is not a string; "done" is not true or false; "reason" is not a string; it sent /,
  );
  assert.deepEqual(readUserReply("{}"), {
    problem: '"message" is missing; "done" is missing; it sent "{}".',
  });
});

test("what it sent is quoted cut short at 200 characters", () => {
  const read = readUserReply(`no ${"x".repeat(500)}`);
  assert.ok("problem" in read);
  assert.ok(read.problem.endsWith(`it sent "no ${"x".repeat(196)}….`), read.problem);
});

test("an empty reason is left out; a message at the limit is kept", () => {
  assert.deepEqual(readUserReply(JSON.stringify({ message: "m".repeat(2000), done: false, reason: "" })), {
    reply: { message: "m".repeat(2000), done: false },
  });
});
