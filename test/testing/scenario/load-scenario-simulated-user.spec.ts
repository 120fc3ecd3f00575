import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { FlowcheckError } from "../../../src/errors.ts";
import { loadScenario } from "../../../src/testing/index.ts";
import { scenarioCases } from "../../../src/testing/scenario/scenario-cases.ts";
import { BasicFlow } from "../../fixtures/flows/index.ts";

const STEPS = "Its steps are NameStep, WeatherStep, AddressStep.";

/** `test/fixtures/simulated-scenarios/<name>.scenario.json`. */
function fixture(name: string): string {
  return join(import.meta.dirname, "..", "..", "fixtures", "simulated-scenarios", `${name}.scenario.json`);
}

/** The problems the fixture `name` is refused with, after checking the error names its file. */
function problemsOf(name: string): string[] {
  const file = fixture(name);
  try {
    loadScenario(file, [BasicFlow]);
  } catch (error) {
    assert.ok(error instanceof FlowcheckError && error.code === "scenario_invalid", String(error));
    assert.ok(error.message.startsWith(`${file} is not a valid scenario (`), error.message);
    return error.details as string[];
  }
  return assert.fail(`${file} loaded, but it should have been refused`);
}

test("a simulated user with its success loads without turns, the absent turns read as an empty list", () => {
  const { scenario, lines } = loadScenario(fixture("no-opening-turns"), [BasicFlow]);
  assert.deepEqual(scenario.turns, []);
  assert.deepEqual(scenario.user, {
    persona: "Ada Lovelace, a mathematician who answers what she is asked and no more.",
    goal: "Hear the weather in LA and NYC, then have her postal address saved.",
    facts: { name: "Ada Lovelace", cities: ["LA", "NYC"], address: { street: "1600 SW Murray Blvd", zip: "97006" } },
    maxTurns: 6,
    style: "terse",
  });
  assert.equal(
    scenario.success?.judge,
    "The assistant reported the weather for both cities before asking for the address.",
  );
  assert.deepEqual(lines, { turns: [], final: 12 }, "the final expectations are success's");
});

test("each case's values replace the placeholders of the user's persona, goal and facts, and of success", () => {
  const cases = scenarioCases(loadScenario(fixture("opening-turns-cases"), [BasicFlow]));
  assert.deepEqual(
    cases.map(({ scenario }) => [scenario.turns.length, scenario.user, scenario.success]),
    [
      [
        1,
        {
          persona: "Ada Lovelace, in a hurry.",
          goal: "Hear the weather in LA.",
          facts: { name: "Ada Lovelace", home: { city: "LA" }, visits: 3 },
        },
        { finalState: { NameStep: { name: "Ada Lovelace" } }, responseMustInclude: ["LA"] },
      ],
      [
        1,
        {
          persona: "Grace Hopper, in a hurry.",
          goal: "Hear the weather in NYC.",
          facts: { name: "Grace Hopper", home: { city: "NYC" }, visits: 3 },
        },
        { finalState: { NameStep: { name: "Grace Hopper" } }, responseMustInclude: ["NYC"] },
      ],
    ],
  );
});

test("misspelt keys of user and success, a style and a maxTurns out of bounds and a misspelt success step are all reported at once", () => {
  assert.deepEqual(problemsOf("misspelt-user-and-success"), [
    "user: the required key `persona` is missing.",
    "user.persna: `persna` is not a known key; did you mean `persona`?",
    "user.maxTurns: 0 must be >= 1.",
    'user.style: "rude" is not one of "cooperative", "terse", "changes-mind", "off-topic", "rule-bender".',
    `success.finalState.AdressStep: "AdressStep" is not a step of BasicFlow; did you mean AddressStep? ${STEPS}`,
    "success.minScore: has no effect without judge; add the criterion the judge grades, or drop minScore.",
  ]);
});

test("a misspelt user is named with the key meant, beside what its absence leaves wrong: no turn, and a success without a user", () => {
  assert.deepEqual(problemsOf("misspelt-top-level"), [
    "turns: is empty; give the conversation at least one turn, or a simulated `user` and its `success` to play it.",
    "usr: `usr` is not a known key; did you mean `user`?",
    "success: needs `user` beside it: success is what a simulated user's conversation must reach: add `user`, or check the turns and the final expectations instead.",
  ]);
});

test("a simulated user without success is refused, and so is success without a simulated user", () => {
  assert.deepEqual(problemsOf("user-without-success"), [
    "user: needs `success` beside it: a simulated conversation must say what success is: add `success` with at least one of completed, finalState, responseMustInclude, responseMustNotInclude, judge.",
  ]);
  assert.deepEqual(problemsOf("success-without-user"), [
    "success: needs `user` beside it: success is what a simulated user's conversation must reach: add `user`, or check the turns and the final expectations instead.",
  ]);
});

test("an empty persona and a success that says nothing must hold are refused, naming what to give", () => {
  assert.deepEqual(problemsOf("empty-user-and-success"), [
    "user.persona: is an empty string; expected text.",
    "success: says none of `completed`, `finalState`, `responseMustInclude`, `responseMustNotInclude`, `judge`; give at least one of them.",
  ]);
});

test("a placeholder of the user or success that no case gives is reported as one in a turn is", () => {
  assert.deepEqual(problemsOf("unfilled-placeholders"), [
    'cases[0] (case "Lisbon").values: no value for {{holder}}, which user.facts.card.holder uses.',
    'cases[0] (case "Lisbon").values: no value for {{nights}}, which success.judge uses.',
  ]);
  assert.deepEqual(problemsOf("placeholder-without-cases"), [
    'user.persona: uses {{who}}, but the scenario has no cases to give it a value; add "cases", or write the text out.',
  ]);
});
