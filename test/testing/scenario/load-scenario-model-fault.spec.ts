import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { isFlowcheckError } from "../../../src/errors.ts";
import { loadScenario } from "../../../src/testing/index.ts";
import { RelayFlow } from "../../support/relay-flow.ts";
import { tempDir } from "../../support/temp-path.ts";

let dir: { path: string; remove(): void };
before(async () => {
  dir = await tempDir("load-model-fault");
});
after(() => dir.remove());

/** The problems loading a RelayFlow scenario with these turns reports, none when it loads. */
function problemsOf(turns: unknown[]): string[] {
  const file = join(dir.path, "fault.scenario.json");
  writeFileSync(file, JSON.stringify({ flowName: "RelayFlow", turns }, null, 2));
  try {
    loadScenario(file, [RelayFlow]);
  } catch (error) {
    assert.ok(isFlowcheckError(error, "scenario_invalid"), String(error));
    assert.match(error.message, /fault\.scenario\.json/);
    return error.details as string[];
  }
  return [];
}

const turn = { label: "fault", input: "hello", expectedStatus: 502 };

test("a modelFault of each kind loads, a timeout with its holdMs", () => {
  assert.deepEqual(
    problemsOf([
      { ...turn, label: "error", modelFault: { call: 1, kind: "error" } },
      { ...turn, label: "rate", modelFault: { call: 2, kind: "rate-limit" } },
      { ...turn, label: "timeout", modelFault: { call: 1, kind: "timeout", holdMs: 50 } },
      {
        ...turn,
        label: "malformed",
        modelFault: { call: 1, kind: "malformed-tool-call" },
        expectedStatus: 200,
        expectedActiveStep: "GreetStep",
      },
      {
        ...turn,
        label: "truncated",
        modelFault: { call: 1, kind: "truncated" },
        expectedStatus: 200,
        expectedActiveStep: "GreetStep",
      },
    ]),
    [],
  );
});

test("a turn with both failModelCall and modelFault is refused at its modelFault, saying which to keep", () => {
  assert.deepEqual(problemsOf([{ ...turn, failModelCall: 2, modelFault: { call: 1, kind: "timeout" } }]), [
    'turns[0].modelFault (turn "fault"): the turn also has failModelCall 2, which is the modelFault ' +
      '{ "call": 2, "kind": "error" }, and a turn takes one fault; keep one of them.',
  ]);
});

test("a modelFault's call below 1, an unknown kind, a missing kind and a holdMs on a kind other than timeout are refused", () => {
  assert.deepEqual(
    problemsOf([
      { ...turn, label: "zero", modelFault: { call: 0, kind: "error" } },
      { ...turn, label: "kind", modelFault: { call: 1, kind: "overload" } },
      { ...turn, label: "missing", modelFault: { call: 1 } },
      { ...turn, label: "hold", modelFault: { call: 1, kind: "error", holdMs: 100 } },
    ]),
    [
      'turns[0].modelFault.call (turn "zero"): 0 must be >= 1.',
      'turns[1].modelFault.kind (turn "kind"): "overload" is not one of "error", "rate-limit", "timeout", "malformed-tool-call", "truncated".',
      'turns[2].modelFault (turn "missing"): the required key `kind` is missing.',
      'turns[3].modelFault.holdMs (turn "hold"): may not be set here, so 100 is refused. ' +
        "Only a timeout holds its call: drop holdMs, or make the kind timeout.",
    ],
  );
});
