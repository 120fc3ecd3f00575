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
  dir = await tempDir("load-every-problem");
});
after(() => dir.remove());

function problemsOf(name: string, content: unknown): string[] {
  const file = join(dir.path, `${name}.scenario.json`);
  writeFileSync(file, JSON.stringify(content, null, 2));
  try {
    loadScenario(file, [RelayFlow]);
  } catch (error) {
    assert.ok(isFlowcheckError(error, "scenario_invalid"), String(error));
    return error.details as string[];
  }
  return [];
}

test("a wrong type, an unknown key, an unknown step, a repeated label and a bad pattern are reported in one pass", () => {
  assert.deepEqual(
    problemsOf("five", {
      flowName: "RelayFlow",
      turns: [
        { label: "one", input: "hello", expectedStatus: "200", expectedActiveStep: "FarewellStep" },
        { label: "two", input: "bye", expectedActivStep: "FarewellStep" },
        { label: "three", input: "again", expectedActiveStep: "FarwellStep" },
        { label: "three", input: "more", expectedActiveStep: "FarewellStep", responseMatches: "(unclosed" },
      ],
    }),
    [
      'turns[0].expectedStatus (turn "one"): "200" is a string; expected integer.',
      'turns[1].expectedActivStep (turn "two"): `expectedActivStep` is not a known key; did you mean `expectedActiveStep`?',
      'turns[2].expectedActiveStep (turn "three"): "FarwellStep" is not a step of RelayFlow; did you mean FarewellStep? Its steps are GreetStep, FarewellStep.',
      'turns[3].label (turn "three"): "three" is also the label of turns[2]; labels name the tests, so each must be unique.',
      'turns[3].responseMatches (turn "three"): "(unclosed" is not a valid regular expression (Invalid regular expression: /(unclosed/: Unterminated group).',
    ],
  );
});

test("a turn of the wrong type, a label missing and an unknown flow are reported together, without guessing at what the broken turn meant", () => {
  assert.deepEqual(
    problemsOf("shapes", {
      flowName: "RelayFlo",
      turns: [
        "hello",
        { input: "bye", expectedActiveStep: "FarewellStep" },
        { label: "ok", input: "x", expectedActiveStep: "GreetStep", expectedStatus: "409" },
      ],
    }),
    [
      'turns[0]: "hello" is a string; expected object.',
      "turns[1]: the required key `label` is missing.",
      'turns[2].expectedStatus (turn "ok"): "409" is a string; expected integer.',
      'flowName: "RelayFlo" is not a registered flow; did you mean RelayFlow? The flows are RelayFlow.',
    ],
  );
});

test("turns that are not a list and cases without values are reported without stopping the other checks", () => {
  assert.deepEqual(
    problemsOf("no-turns", { flowName: "RelayFlow", turns: { label: "one" }, finalState: { Nowhere: {} } }),
    [
      'turns: {"label":"one"} is an object; expected array.',
      'finalState.Nowhere: "Nowhere" is not a step of RelayFlow. Its steps are GreetStep, FarewellStep.',
    ],
  );
  assert.deepEqual(
    problemsOf("cases", {
      flowName: "RelayFlow",
      cases: [{ label: "a" }, { label: "b", values: { who: "Ada" } }],
      turns: [{ label: "hi {{who}}", input: "{{who}}", expectedActiveStep: "FarewellStep" }],
    }),
    ["cases[0]: the required key `values` is missing."],
  );
});
