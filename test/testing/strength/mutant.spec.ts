import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { changedValue } from "../../../src/testing/strength/mutant.ts";

describe("changedValue", () => {
  test("changes each kind of value as a slip would, and the same way every time", () => {
    assert.equal(changedValue(7), 8);
    assert.equal(changedValue(-1.5), -0.5);
    assert.equal(changedValue("Ada"), "Ada·");
    assert.equal(changedValue(""), "mutant");
    assert.equal(changedValue(true), false);
    assert.equal(changedValue(false), true);
    assert.deepEqual(changedValue([1, 2, 3]), [1, 2]);
    assert.deepEqual(changedValue([]), []);
    assert.deepEqual(changedValue({ zip: "97006", city: "Beaverton" }), { zip: "97006·", city: "Beaverton" });
    assert.deepEqual(changedValue({}), { mutant: true });
    assert.equal(changedValue(null), "mutant");
    assert.deepEqual(changedValue({ zip: "97006" }), changedValue({ zip: "97006" }));
  });
});
