import assert from "node:assert/strict";
import { test } from "node:test";
import { migrateCassette } from "../../../src/testing/cassette/migrate-cassette.ts";

const V1 = {
  cassette: 1,
  scenario: "basic-flow",
  recordedAt: "2026-11-02T10:00:00.000Z",
  calls: [
    {
      position: 1,
      turn: 1,
      label: "name",
      kind: "model",
      where: "AddressCheck/NormalizeAddressStep",
      request: { model: "gpt-4o-mini", system: "s", tools: [], messages: [] },
      reply: { content: "hi", toolCalls: [] },
    },
    { position: 2, turn: 1, label: "name", kind: "judge", request: { system: "j" }, reply: { content: "{}" } },
  ],
};

test("a version 1 cassette reads as version 2: each engine model call's Flow/Step becomes its flow and step, judge calls as they were", () => {
  const migrated = migrateCassette(structuredClone(V1), "x.cassette.json");
  assert.equal(migrated.cassette, 2);
  assert.equal(migrated.scenario, "basic-flow");
  assert.equal(migrated.recordedAt, V1.recordedAt);
  assert.deepEqual(migrated.calls[0], {
    ...V1.calls[0],
    where: { flow: "AddressCheck", step: "NormalizeAddressStep" },
  });
  assert.deepEqual(migrated.calls[1], V1.calls[1]);
});

test("a version 2 cassette reads as it is, seam calls and all", () => {
  const v2 = {
    ...V1,
    cassette: 2,
    calls: [{ ...V1.calls[0], where: { target: "desk", api: "responses" } }],
  };
  assert.deepEqual(migrateCassette(structuredClone(v2), "x.cassette.json"), v2);
});

test("a cassette of another version fails with cassette_mismatch naming the file, its version and the versions read", () => {
  assert.throws(() => migrateCassette({ ...V1, cassette: 3 }, "fixtures/desk.cassette.json"), {
    code: "cassette_mismatch",
    message:
      "fixtures/desk.cassette.json is cassette version 3, and this flowcheck reads versions 1 and 2: " +
      "play it with the flowcheck that recorded it, or record it again with FLOW_MODEL=record.",
  });
});

test("JSON that is no cassette fails with cassette_missing, saying to record it again", () => {
  for (const json of [null, [], { calls: [] }, { cassette: 1 }])
    assert.throws(() => migrateCassette(json, "x.cassette.json"), {
      code: "cassette_missing",
      message:
        'x.cassette.json is not a flowcheck cassette (no "cassette" version and "calls"); delete it and record it again.',
    });
});
