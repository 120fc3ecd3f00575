import assert from "node:assert/strict";
import { test } from "node:test";
import type { Mutant } from "../../../src/testing/strength/mutant.ts";
import type { TurnReport } from "../../../src/testing/checks/turn-report.ts";
import { liveCatch } from "../../../src/testing/strength/live-catch.ts";

// Where only the scripted model refused a mutant, the report names the expectation a live run needs.

function turn(checks: TurnReport["checks"] = []): TurnReport {
  return {
    number: 2,
    label: "name accepted",
    input: "Ada",
    outcome: "passed",
    checks,
    stored: {
      id: "s",
      version: 3,
      flow: { name: "BasicFlow", currentStep: "WeatherStep" },
      runStatus: "running",
      steps: { NameStep: { name: "Ada" } },
      children: [],
      createdAt: "",
      updatedAt: "",
    },
  };
}

const place = { flow: "BasicFlow", step: "NameStep", tool: "save_name" };

test("a dropped write needs the value the unmutated turn stored, unless the turn checks that step's state", () => {
  const mutant: Mutant = { id: "m", ...place, change: { kind: "drop-write", key: "name" } };
  assert.equal(liveCatch(mutant, turn()), 'add "expectState": { "NameStep": { "name": "Ada" } }');
  assert.equal(
    liveCatch(mutant, turn([{ contract: "expectation", name: "expectState.NameStep", outcome: "passed" }])),
    "its expectState.NameStep catches it live if it names name",
  );
});

test("a step that stays or moves elsewhere needs the step the unmutated turn stored", () => {
  const mutant: Mutant = { id: "m", ...place, change: { kind: "advance-to-stay" } };
  assert.equal(liveCatch(mutant, turn()), 'add "expectedActiveStep": "WeatherStep"');
  assert.equal(
    liveCatch(mutant, turn([{ contract: "persisted", name: "expectedActiveStep", outcome: "passed" }])),
    'its "expectedActiveStep": "WeatherStep" catches it live',
  );
});

test("a withheld completion needs completed, and a child mutant the child runs", () => {
  assert.equal(
    liveCatch({ id: "m", ...place, change: { kind: "withhold-complete" } }, turn()),
    'add "completed": true',
  );
  assert.match(
    liveCatch(
      { id: "m", flow: "BasicFlow", step: "AddressStep", child: "AddressCheck", change: { kind: "skip-child" } },
      turn(),
    ),
    /^add "finalChildren" naming the AddressCheck run/,
  );
});
