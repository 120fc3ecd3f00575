import assert from "node:assert/strict";
import { test } from "node:test";
import { matchPartial } from "../../../src/testing/checks/match-partial.ts";

test("an object matches when every expected key matches, whatever other keys the actual object has", () => {
  assert.deepEqual(matchPartial({ name: "John Wick" }, { name: "John Wick", age: 40 }, "steps.NameStep"), []);
  assert.deepEqual(
    matchPartial({ address: { zip: "97006" } }, { address: { zip: "97006", state: "OR" }, name: "x" }, "s"),
    [],
  );
});

test("an empty expected object matches only an empty object, so {} asks for no state", () => {
  assert.deepEqual(matchPartial({}, {}, "steps.NameStep"), []);
  assert.deepEqual(matchPartial({}, { anything: true }, "steps.NameStep"), [
    'steps.NameStep: expected an empty object, found {"anything":true}',
  ]);
  assert.deepEqual(matchPartial({ address: {} }, { address: { zip: "1" } }, "s"), [
    's.address: expected an empty object, found {"zip":"1"}',
  ]);
});

test("nested objects are matched partially and a difference names its full path", () => {
  assert.deepEqual(
    matchPartial({ address: { zip: "97006" } }, { address: { zip: "9700", state: "OR" } }, "steps.AddressStep"),
    ['steps.AddressStep.address.zip: expected "97006", found "9700"'],
  );
});

test("a missing key lists the keys that are there, or says the object is empty", () => {
  assert.deepEqual(matchPartial({ city_SF: 60 }, { city_LA: 72, city_NYC: 64 }, "steps.WeatherStep"), [
    "steps.WeatherStep.city_SF: missing; steps.WeatherStep has city_LA, city_NYC",
  ]);
  assert.deepEqual(matchPartial({ name: "John" }, {}, "steps.NameStep"), [
    "steps.NameStep.name: missing; steps.NameStep is empty",
  ]);
});

test("every difference is reported, one message each", () => {
  assert.deepEqual(matchPartial({ a: 1, b: 2, c: 3 }, { a: 1, b: 20 }, "x"), [
    "x.b: expected 2, found 20",
    "x.c: missing; x has a, b",
  ]);
});

test("arrays match exactly in length, element by element, objects inside them partially", () => {
  assert.deepEqual(matchPartial([1, 2], [1, 2], "x"), []);
  assert.deepEqual(matchPartial([1], [1, 2], "x"), ["x: expected 1 items, found 2: [1,2]"]);
  assert.deepEqual(matchPartial([1, 3], [1, 2], "x"), ["x[1]: expected 3, found 2"]);
  assert.deepEqual(matchPartial([{ step: "NameStep" }], [{ step: "NameStep", turn: 1 }], "x"), []);
  assert.deepEqual(matchPartial([{ step: "NameStep" }], [{ step: "WeatherStep" }], "execution"), [
    'execution[0].step: expected "NameStep", found "WeatherStep"',
  ]);
});

test("scalars match exactly, with no type conversion", () => {
  assert.deepEqual(matchPartial(72, 72, "x"), []);
  assert.deepEqual(matchPartial(null, null, "x"), []);
  assert.deepEqual(matchPartial(72, "72", "x"), ['x: expected 72, found "72"']);
  assert.deepEqual(matchPartial(true, 1, "x"), ["x: expected true, found 1"]);
  assert.deepEqual(matchPartial("a", undefined, "x"), ['x: expected "a", found undefined']);
});

test("a value of another shape than expected says what was found", () => {
  assert.deepEqual(matchPartial({ zip: "97006" }, "97006", "x"), ['x: expected an object, found "97006"']);
  assert.deepEqual(matchPartial({ zip: "97006" }, ["97006"], "x"), ['x: expected an object, found ["97006"]']);
  assert.deepEqual(matchPartial({ zip: "97006" }, null, "x"), ["x: expected an object, found null"]);
  assert.deepEqual(matchPartial(["LA"], { 0: "LA" }, "x"), ['x: expected an array, found {"0":"LA"}']);
});

test("long values are cut to 80 characters in messages", () => {
  const long = "a".repeat(100);
  assert.deepEqual(matchPartial("b", long, "x"), [`x: expected "b", found "${"a".repeat(79)}…`]);
});
