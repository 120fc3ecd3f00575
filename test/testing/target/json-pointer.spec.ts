import assert from "node:assert/strict";
import { test } from "node:test";
import { readPointer } from "../../../src/testing/target/json-pointer.ts";

// RFC 6901's own example document (section 5), with its pointers and the values they find.
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

test("each pointer of RFC 6901's example finds its value, ~1 and ~0 read as / and ~", () => {
  const cases: [string, unknown][] = [
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
  for (const [pointer, value] of cases) assert.deepEqual(readPointer(RFC, pointer), { found: true, value }, pointer);
});

test("~01 is the key ~1: ~1 is decoded before ~0", () => {
  assert.deepEqual(readPointer({ "~1": "tilde-one", "/": "slash" }, "/~01"), { found: true, value: "tilde-one" });
});

test("a value that is there but falsy is found", () => {
  const state = { values: { done: false, step: null, count: 0, name: "" } };
  for (const [key, value] of Object.entries(state.values)) {
    assert.deepEqual(readPointer(state, `/values/${key}`), { found: true, value });
  }
});

test("a missing key, an index past the end, a leading zero, '-', a path through a scalar and a pointer without '/' find nothing", () => {
  const state = { values: { step: "NameStep", list: ["a", "b"] } };
  for (const pointer of [
    "/values/stage",
    "/values/list/2",
    "/values/list/01",
    "/values/list/-",
    "/values/step/0",
    "values",
  ]) {
    assert.deepEqual(readPointer(state, pointer), { found: false }, pointer);
  }
});

test("an object's inherited properties are not found", () => {
  assert.deepEqual(readPointer({}, "/toString"), { found: false });
  assert.deepEqual(readPointer({ a: {} }, "/a/constructor"), { found: false });
});
