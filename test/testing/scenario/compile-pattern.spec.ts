import assert from "node:assert/strict";
import { test } from "node:test";
import { isSuccessStatus } from "../../../src/testing/scenario/is-success-status.ts";
import { compilePattern } from "../../../src/testing/scenario/compile-pattern.ts";

test("a /pattern/flags string compiles to the pattern with its flags", () => {
  const pattern = compilePattern("/address/i");
  assert.equal(pattern.source, "address");
  assert.equal(pattern.flags, "i");
  assert.ok(pattern.test("What is your ADDRESS?"));
});

test("a bare pattern compiles as given, without flags, so it is case-sensitive", () => {
  const pattern = compilePattern("LA 72\\s?°F");
  assert.equal(pattern.source, "LA 72\\s?°F");
  assert.equal(pattern.flags, "");
  assert.ok(pattern.test("Today: LA 72°F"));
  assert.ok(!compilePattern("address").test("ADDRESS"));
});

test("slashes inside a /pattern/flags string belong to the pattern, and several flags are kept", () => {
  const pattern = compilePattern("/a/b/gm");
  assert.equal(pattern.source, "a\\/b");
  assert.equal(pattern.flags, "gm");
  assert.ok(compilePattern("/^line two$/m").test("line one\nline two"));
  assert.ok(compilePattern("/one.two/s").test("one\ntwo"));
});

test("a pattern that does not compile throws the engine's SyntaxError", () => {
  assert.throws(() => compilePattern("(unclosed"), {
    name: "SyntaxError",
    message: "Invalid regular expression: /(unclosed/: Unterminated group",
  });
  assert.throws(() => compilePattern("/[a-z/i"), {
    name: "SyntaxError",
    message: "Invalid regular expression: /[a-z/i: Unterminated character class",
  });
});

test("2xx statuses are success statuses, everything else is an error status", () => {
  assert.deepEqual([199, 200, 201, 204, 299, 300, 404, 409, 500].map(isSuccessStatus), [
    false,
    true,
    true,
    true,
    true,
    false,
    false,
    false,
    false,
  ]);
});
