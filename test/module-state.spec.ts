import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { moduleState, moduleStateIn } from "./tools/module-state.ts";

// No module-level binding of the tester or the command changes after import: a run's values are
// handed down (the run context, arguments), so two runs or two specs in one process never share them.

const FIXTURE = "test/fixtures/module-state/violations.ts";

test("no module-level binding in src/testing and src/cli is reassigned or mutated after import", () => {
  const found = [...moduleState("src/testing"), ...moduleState("src/cli")];
  assert.deepEqual(
    found.map((each) => `${each.file}:${each.line} ${each.why}`),
    [],
    "hand the value down (the run context, an argument, an object with the lifetime it needs) instead",
  );
});

test("the scan finds every kind of module state in its fixture, and nothing that is only read", () => {
  const found = moduleStateIn(FIXTURE, readFileSync(FIXTURE, "utf8"));
  assert.deepEqual(
    found.map((each) => each.name),
    ["reassigned", "incremented", "cache", "seen", "weak", "list", "settings", "counter", "shared"],
  );
  assert.deepEqual(found[0], {
    file: FIXTURE,
    line: 12,
    name: "reassigned",
    why: "let reassigned is assigned again on line 15",
  });
});
