import assert from "node:assert/strict";
import { test } from "node:test";
import { readPointer } from "../../../src/testing/target/json-pointer.ts";

// The document of RFC 6901, section 5.
const RFC = {
  foo: ["bar", "baz"],
  "": 0,
  "a/b": 1,
  "c%d": 2,
  "e^f": 3,
  "g|h": 4,
  "i\\j": 5,
  'k"l': 6,
  " ": 7,
  "m~n": 8,
};

test("every pointer of RFC 6901's section 5 finds the value the RFC says", () => {
  const expected: [string, unknown][] = [
    ["", RFC],
    ["/foo", ["bar", "baz"]],
    ["/foo/0", "bar"],
    ["/", 0],
    ["/a~1b", 1],
    ["/c%d", 2],
    ["/e^f", 3],
    ["/g|h", 4],
    ["/i\\j", 5],
    ['/k"l', 6],
    ["/ ", 7],
    ["/m~0n", 8],
  ];
  for (const [pointer, value] of expected) assert.deepEqual(readPointer(RFC, pointer), { found: true, value }, pointer);
});

test("~01 is the key ~1, not /: ~1 is decoded before ~0", () => {
  assert.deepEqual(readPointer({ "~1": "tilde one", "/": "slash" }, "/~01"), { found: true, value: "tilde one" });
});

test("a null or false that is there is found, as a value", () => {
  assert.deepEqual(readPointer({ a: null, b: false }, "/a"), { found: true, value: null });
  assert.deepEqual(readPointer({ a: null, b: false }, "/b"), { found: true, value: false });
});

test("an index past the end, '-', a leading zero or a key on an array finds nothing", () => {
  for (const pointer of ["/foo/2", "/foo/-", "/foo/01", "/foo/length", "/foo/-1"]) {
    assert.deepEqual(readPointer(RFC, pointer), { found: false }, pointer);
  }
});

test("a missing key, a key under a string or null, an inherited property and a pointer without a leading / find nothing", () => {
  const value = { a: "text", n: null };
  for (const pointer of ["/b", "/a/0", "/a/length", "/n/x", "/toString", "/constructor", "a"]) {
    assert.deepEqual(readPointer(value, pointer), { found: false }, pointer);
  }
});

test("indexes and keys go down through nested arrays and objects", () => {
  const value = { choices: [{ message: { content: "Hi" } }] };
  assert.deepEqual(readPointer(value, "/choices/0/message/content"), { found: true, value: "Hi" });
});
