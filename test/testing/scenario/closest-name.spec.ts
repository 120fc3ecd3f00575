import assert from "node:assert/strict";
import { test } from "node:test";
import { closestName } from "../../../src/testing/scenario/closest-name.ts";

const TURN_KEYS = [
  "label",
  "input",
  "expectedResponse",
  "minScore",
  "expectedActiveStep",
  "completed",
  "responseMustInclude",
  "expectState",
];

test("a typo is matched to the candidate it most likely meant", () => {
  assert.equal(closestName("expectedActivStep", TURN_KEYS), "expectedActiveStep");
  assert.equal(closestName("lable", TURN_KEYS), "label");
  assert.equal(closestName("responseMustIncludes", TURN_KEYS), "responseMustInclude");
  assert.equal(closestName("WeatherStpe", ["NameStep", "WeatherStep", "AddressStep"]), "WeatherStep");
});

test("case is ignored, and the candidate is returned as it is spelled", () => {
  assert.equal(closestName("basicflow", ["BasicFlow", "HotelFlow"]), "BasicFlow");
  assert.equal(closestName("EXPECTSTATE", TURN_KEYS), "expectState");
});

test("a name far from every candidate has no suggestion", () => {
  assert.equal(closestName("color", TURN_KEYS), undefined);
  assert.equal(closestName("HotelBookingFlow", ["BasicFlow"]), undefined);
  assert.equal(closestName("anything", []), undefined);
});

test("the distance allowed grows with the name: two edits for short names, a third of the length for long ones", () => {
  assert.equal(closestName("inptu", ["input"]), "input");
  assert.equal(closestName("ixxxt", ["input"]), undefined);
  // 18 characters allow 6 edits.
  assert.equal(closestName("expectedXXXXXXStep", ["expectedActiveStep"]), "expectedActiveStep");
  assert.equal(closestName("expectXXXXXXXXStep", ["expectedActiveStep"]), undefined);
});

test("of two equally close candidates the first is chosen", () => {
  assert.equal(closestName("cat", ["bat", "hat"]), "bat");
});
