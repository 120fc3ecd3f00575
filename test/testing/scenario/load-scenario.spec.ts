import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, before, test } from "node:test";
import { Ajv2020 } from "ajv/dist/2020.js";
import scenarioSchema from "../../../scenarios/scenario.schema.json" with { type: "json" };
import { FlowcheckError } from "../../../src/errors.ts";
import { discoverScenarios, loadScenario } from "../../../src/testing/index.ts";
import { cassettePathOf } from "../../../src/testing/cassette/cassette.ts";
import { scenarioCases } from "../../../src/testing/scenario/scenario-cases.ts";
import { BasicFlow } from "../../fixtures/flows/index.ts";
import { fixtureScenario } from "../../support/fixture-scenario.ts";
import { ClockFlow } from "../../support/clock-flow.ts";
import { tempDir } from "../../support/temp-path.ts";

const flows = [BasicFlow, ClockFlow];
const STEPS = "Its steps are NameStep, WeatherStep, AddressStep.";

let dir: { path: string; remove: () => void };
before(async () => {
  dir = await tempDir("load-scenario");
});
after(() => dir.remove());

/** Writes `content` (an object as JSON, or a text as is) to `<name>.scenario.json` in the temp folder. */
function write(name: string, content: unknown): string {
  const file = join(dir.path, `${name}.scenario.json`);
  writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content, null, 2));
  return file;
}

/** A turn that loads, on NameStep. */
function turn(label: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { label, input: "John Wick", expectedActiveStep: "NameStep", ...extra };
}

/** Loads `file`, which must be refused with scenario_invalid naming the file; returns the problems. */
function problemsOf(file: string): string[] {
  try {
    loadScenario(file, flows);
  } catch (error) {
    assert.ok(error instanceof FlowcheckError, String(error));
    assert.equal(error.code, "scenario_invalid");
    const problems = error.details as string[];
    assert.ok(Array.isArray(problems) && problems.length > 0, "the error lists its problems in details");
    const count = `${problems.length} problem${problems.length === 1 ? "" : "s"}`;
    assert.equal(
      error.message,
      `${file} is not a valid scenario (${count}); no turn was run:\n- ${problems.join("\n- ")}`,
    );
    return problems;
  }
  return assert.fail(`${file} loaded, but it should have been refused`);
}

// The loader skips this check to start faster, so it is made here.
test("scenarios/scenario.schema.json is a valid JSON Schema 2020-12 document", () => {
  const ajv = new Ajv2020({ strict: true });
  assert.equal(ajv.validateSchema(scenarioSchema), true, ajv.errorsText());
});

test("a valid scenario loads with its file and its name taken from the file name", () => {
  const content = {
    $schema: "./scenario.schema.json",
    flowName: "BasicFlow",
    turns: [turn("name accepted", { expectedActiveStep: "WeatherStep" })],
  };
  const file = write("valid-one", content);
  assert.deepEqual(loadScenario(file, flows), {
    file,
    name: "valid-one",
    scenario: content,
    lines: { turns: [6], final: 11 },
  });
});

test("a scenario's target is kept as written; one that is not a target's name is refused", () => {
  const content = {
    flowName: "BasicFlow",
    target: "staging",
    turns: [turn("name accepted", { expectedActiveStep: "WeatherStep" })],
  };
  assert.equal(loadScenario(write("with-target", content), flows).scenario.target, "staging");
  assert.deepEqual(problemsOf(write("bad-target", { ...content, target: "Staging EU" })), [
    'target: "Staging EU" is not lower-case letters, digits and dashes.',
  ]);
});

test("the scenario files found under a folder load, each with the path it was found at", () => {
  const { files } = discoverScenarios(dirname(fixtureScenario("basic-flow")));
  for (const name of ["basic-flow", "basic-flow-placeholder-names"])
    assert.ok(files.includes(fixtureScenario(name)), files.join(", "));
  for (const file of files) assert.equal(loadScenario(file, flows).file, file);
});

test("a typo'd key is refused naming the JSON path, the turn's label and the closest known key", () => {
  const file = write("typo", {
    flowName: "BasicFlow",
    turns: [turn("one"), turn("two"), { label: "three", input: "hi", expectedActivStep: "NameStep" }],
  });
  assert.deepEqual(problemsOf(file), [
    'turns[2].expectedActivStep (turn "three"): `expectedActivStep` is not a known key; did you mean `expectedActiveStep`?',
  ]);
});

test("unknown top-level keys are refused, each with the closest key or else the keys allowed", () => {
  const file = write("top", { flowName: "BasicFlow", turns: [turn("one")], finalStates: {}, color: "blue" });
  assert.deepEqual(problemsOf(file), [
    "finalStates: `finalStates` is not a known key; did you mean `finalState`?",
    "color: `color` is not a known key; the keys allowed here are $schema, flowName, target, description, tags, env, judgeModel, judgeMinScore, judgeInstructions, turns, user, success, finalState, finalExecution, finalChildren, finalMemory, maxTokens, maxCostUsd, cases.",
  ]);
});

test("values of the wrong type are all refused at once, each with the value found and the type expected", () => {
  const file = write("types", {
    flowName: "BasicFlow",
    env: { BASIC_FLOW_CURRENT_DATE: 20270715 },
    turns: [turn("one", { completed: "yes", responseMustInclude: "John", expectedStatus: 200.5 })],
  });
  assert.deepEqual(problemsOf(file), [
    "env.BASIC_FLOW_CURRENT_DATE: 20270715 is a number; expected string.",
    'turns[0].completed (turn "one"): "yes" is a string; expected boolean.',
    'turns[0].responseMustInclude (turn "one"): "John" is a string; expected array.',
    'turns[0].expectedStatus (turn "one"): 200.5 is a number; expected integer.',
  ]);
});

test("values outside what the schema allows are refused saying what is allowed", () => {
  const file = write("allowed", {
    flowName: "BasicFlow",
    tags: ["Smoke Test"],
    env: { lower_case: "1" },
    turns: [turn("one", { responseMatches: 4, expectContentType: "event stream" })],
    finalExecution: [{ outcome: "done" }],
  });
  assert.deepEqual(problemsOf(file), [
    'tags[0]: "Smoke Test" is not lower-case letters, digits and dashes.',
    'env.lower_case: the key "lower_case" is not an UPPER_SNAKE_CASE variable name.',
    'turns[0].responseMatches (turn "one"): 4 is a number; expected a pattern string or a list of pattern strings.',
    'turns[0].expectContentType (turn "one"): "event stream" is not a media type such as text/event-stream.',
    'finalExecution[0].outcome: "done" is not one of "stay", "advance", "complete", "invalid", "skipped", "running", "completed", "failed".',
  ]);
});

test("a file without flowName and turns is refused naming both required keys, and the simulated user that may stand for the turns", () => {
  assert.deepEqual(problemsOf(write("empty", {})), [
    "(the file): the required key `turns` is missing; give the conversation's turns, or a simulated `user` and its `success`.",
    "(the file): the required key `flowName` is missing.",
  ]);
  assert.deepEqual(problemsOf(write("no-turn", { flowName: "BasicFlow", turns: [] })), [
    "turns: is empty; give the conversation at least one turn, or a simulated `user` and its `success` to play it.",
  ]);
});

test("duplicate labels are refused, each naming the turn that has the label first", () => {
  const file = write("duplicates", { flowName: "BasicFlow", turns: [turn("same"), turn("other"), turn("same")] });
  assert.deepEqual(problemsOf(file), [
    'turns[2].label (turn "same"): "same" is also the label of turns[0]; labels name the tests, so each must be unique.',
  ]);
});

test("an unknown flow is refused with the closest registered flow", () => {
  assert.deepEqual(problemsOf(write("flow-typo", { flowName: "BasicFlw", turns: [turn("one")] })), [
    'flowName: "BasicFlw" is not a registered flow; did you mean BasicFlow? The flows are BasicFlow, ClockFlow.',
  ]);
  assert.deepEqual(problemsOf(write("flow-unknown", { flowName: "HotelBookingFlow", turns: [turn("one")] })), [
    'flowName: "HotelBookingFlow" is not a registered flow. The flows are BasicFlow, ClockFlow.',
  ]);
});

test("unknown steps in expectedActiveStep, expectState, finalState, finalExecution, finalChildren and finalMemory are all refused with the flow's steps", () => {
  const file = write("steps", {
    flowName: "BasicFlow",
    turns: [turn("one", { expectedActiveStep: "NameStpe" }), turn("two", { expectState: { WeatherStpe: {} } })],
    finalState: { AdressStep: { zip: "97006" } },
    finalExecution: [{ turn: 1, step: "CheckoutStep" }],
    finalChildren: [{ flow: "AddressCheck", parentStep: "AddresStep" }],
    finalMemory: { flow: [], NameSteps: [{ role: "user" }] },
  });
  assert.deepEqual(problemsOf(file), [
    `turns[0].expectedActiveStep (turn "one"): "NameStpe" is not a step of BasicFlow; did you mean NameStep? ${STEPS}`,
    `turns[1].expectState.WeatherStpe (turn "two"): "WeatherStpe" is not a step of BasicFlow; did you mean WeatherStep? ${STEPS}`,
    `finalState.AdressStep: "AdressStep" is not a step of BasicFlow; did you mean AddressStep? ${STEPS}`,
    `finalExecution[0].step: "CheckoutStep" is not a step of BasicFlow. ${STEPS}`,
    `finalChildren[0].parentStep: "AddresStep" is not a step of BasicFlow; did you mean AddressStep? ${STEPS}`,
    `finalMemory.NameSteps: "NameSteps" is not a step of BasicFlow; did you mean NameStep? ${STEPS}`,
  ]);
});

test("a nested run or a message with a key the format does not have is refused, with the keys allowed", () => {
  const file = write("final-shapes", {
    flowName: "BasicFlow",
    turns: [turn("one")],
    finalChildren: [{ flow: "AddressCheck", status: "completed" }],
    finalMemory: { flow: [{ role: "user", text: "hi" }] },
  });
  const problems = problemsOf(file);
  assert.equal(problems.length, 2, problems.join("\n"));
  assert.match(
    problems[0]!,
    /^finalChildren\[0\]\.status: `status` is not a known key; .*flow, parentStep, turn, runStatus, currentStep, steps, execution/,
  );
  assert.match(
    problems[1]!,
    /^finalMemory\.flow\[0\]\.text: `text` is not a known key; .*role, content, from, name, toolCallId, toolCalls/,
  );
});

test("regular expressions that do not compile are refused, bare or in the /pattern/flags form", () => {
  const file = write("regex", {
    flowName: "BasicFlow",
    turns: [turn("one", { responseMatches: "(John" }), turn("two", { responseMatches: ["John", "/[a-z/i"] })],
  });
  assert.deepEqual(problemsOf(file), [
    'turns[0].responseMatches (turn "one"): "(John" is not a valid regular expression (Invalid regular expression: /(John/: Unterminated group).',
    'turns[1].responseMatches[1] (turn "two"): "/[a-z/i" is not a valid regular expression (Invalid regular expression: /[a-z/i: Unterminated character class).',
  ]);
});

// What follows the colon is V8's own text, which changes between Node versions; the position is named our way.
test("invalid JSON is refused with the line and column of the mistake, named once", () => {
  const [problem, ...more] = problemsOf(write("broken", '{\n  "flowName": "BasicFlow"\n  "turns": []\n}\n'));
  assert.deepEqual(more, []);
  assert.match(problem!, /^the file is not valid JSON at line 3, column 3: \S/);
  assert.deepEqual(problem!.match(/\bline\b/g), ["line"], problem);
  const [blank, ...moreBlank] = problemsOf(write("blank", ""));
  assert.deepEqual(moreBlank, []);
  assert.match(blank!, /^the file is not valid JSON: \S/);
});

test("a missing file is refused naming the file", () => {
  const file = join(dir.path, "absent.scenario.json");
  assert.deepEqual(problemsOf(file), [`the file cannot be read: ENOENT: no such file or directory, open '${file}'`]);
});

test("an answered turn without expectedActiveStep is refused; an error turn needs none and may not have one", () => {
  const file = write("active-step", {
    flowName: "BasicFlow",
    turns: [
      { label: "no step", input: "John Wick" },
      { label: "refused", input: "again", expectedStatus: 409 },
      { label: "refused with a step", input: "again", expectedStatus: 404, expectedActiveStep: "NameStep" },
    ],
  });
  assert.deepEqual(problemsOf(file), [
    'turns[0].expectedActiveStep (turn "no step"): missing; every answered turn must say which step the session is on after it.',
    'turns[2].expectedStatus (turn "refused with a step"): 404 is an error status, so the turn changes nothing; drop expectedActiveStep, completed and expectState from it.',
  ]);
});

test("a turn that expects an error and tool calls is refused: an error turn stores none; an answered turn may expect them", () => {
  // Outside test/fixtures/scenarios, which other specs play whole: this file does not load.
  const file = join(
    import.meta.dirname,
    "..",
    "..",
    "fixtures",
    "refused-scenarios",
    "basic-flow-error-turn-tool-calls.scenario.json",
  );
  assert.deepEqual(problemsOf(file), [
    'turns[1].expectToolCalls (turn "weather model fails"): the turn expects the error status 502, and a turn that errs stores no tool call (its engine turn is not applied), so there is nothing to match; drop expectToolCalls from it, or expect the calls on a turn that is answered.',
    'turns[4].expectToolCalls (turn "completed session refuses more"): the turn expects the error status 409, and a turn that errs stores no tool call (its engine turn is not applied), so there is nothing to match; drop expectToolCalls from it, or expect the calls on a turn that is answered.',
  ]);
});

test("minScore without expectedResponse is refused", () => {
  const file = write("min-score", { flowName: "BasicFlow", turns: [turn("one", { minScore: 0.9 })] });
  assert.deepEqual(problemsOf(file), [
    'turns[0].minScore (turn "one"): has no effect without expectedResponse; add the expectation the judge grades, or drop minScore.',
  ]);
});

test("problems of different kinds in one file are all reported at once, in the order of the file", () => {
  const file = write("many", {
    flowName: "BasicFlow",
    turns: [
      turn("same", { expectedActiveStep: "NameStpe", responseMatches: "(" }),
      turn("same", { minScore: 0.5 }),
      { label: "no step", input: "hi" },
    ],
    finalState: { Nowhere: {} },
  });
  assert.deepEqual(problemsOf(file), [
    `turns[0].expectedActiveStep (turn "same"): "NameStpe" is not a step of BasicFlow; did you mean NameStep? ${STEPS}`,
    'turns[0].responseMatches (turn "same"): "(" is not a valid regular expression (Invalid regular expression: /(/: Unterminated group).',
    'turns[1].label (turn "same"): "same" is also the label of turns[0]; labels name the tests, so each must be unique.',
    'turns[1].minScore (turn "same"): has no effect without expectedResponse; add the expectation the judge grades, or drop minScore.',
    'turns[2].expectedActiveStep (turn "no step"): missing; every answered turn must say which step the session is on after it.',
    `finalState.Nowhere: "Nowhere" is not a step of BasicFlow. ${STEPS}`,
  ]);
});

test("a typo'd key and an unknown step in one file are both reported in one pass", () => {
  const file = write("typo-and-step", {
    flowName: "BasicFlow",
    turns: [turn("one", { expectState: { NameStp: {} } }), turn("two", { responseMustIncude: ["x"] })],
  });
  assert.deepEqual(problemsOf(file), [
    'turns[1].responseMustIncude (turn "two"): `responseMustIncude` is not a known key; did you mean `responseMustInclude`?',
    `turns[0].expectState.NameStp (turn "one"): "NameStp" is not a step of BasicFlow; did you mean NameStep? ${STEPS}`,
  ]);
});

test("a regular expression literal with an unknown flag is refused, not matched as text", () => {
  const file = write("bad-flag", { flowName: "BasicFlow", turns: [turn("one", { responseMatches: "/john/z" })] });
  const [problem] = problemsOf(file);
  assert.match(
    problem!,
    /^turns\[0\]\.responseMatches \(turn "one"\): "\/john\/z" is not a valid regular expression \(.*flags.*\)\.$/,
  );
});

test("a scenario with cases is one conversation per case, each with its values in place of the placeholders and a name and tape of its own", () => {
  const file = fixtureScenario("basic-flow-placeholder-names");
  const loaded = loadScenario(file, flows);
  const cases = scenarioCases(loaded);
  assert.deepEqual(
    cases.map((each) => [
      each.name,
      each.caseLabel,
      each.scenario.turns[0]!.input,
      each.scenario.turns[0]!.responseMustInclude,
    ]),
    [
      ["basic-flow-placeholder-names.john-doe", "John Doe", "John Doe", ["John Doe"]],
      ["basic-flow-placeholder-names.jane-doe", "Jane Doe", "Jane Doe", ["Jane Doe"]],
      ["basic-flow-placeholder-names.test-user", "test user", "test user", ["test user"]],
      ["basic-flow-placeholder-names.asdf", "asdf", "asdf", ["asdf"]],
      ["basic-flow-placeholder-names.foo-bar", "Foo Bar", "Foo Bar", ["Foo Bar"]],
    ],
  );
  assert.equal(
    cases[1]!.scenario.turns[0]!.expectedResponse,
    "The assistant should say Jane Doe looks like a placeholder and ask for the user's real name.",
  );
  assert.equal(cases[1]!.scenario.cases, undefined);
  assert.equal(cassettePathOf(file, cases[1]!.caseLabel), file.replace(/\.scenario\.json$/, ".jane-doe.cassette.json"));
  assert.deepEqual(scenarioCases(loadScenario(fixtureScenario("basic-flow"), flows)).length, 1);
});

test("cases are refused when a placeholder has no value, a value is used nowhere, two labels name one suite, or a value breaks a pattern", () => {
  const file = write("cases", {
    flowName: "BasicFlow",
    cases: [
      { label: "Jane Doe", values: { name: "Jane Doe", extra: "x" } },
      { label: "jane doe", values: { name: "(" } },
      { label: "nobody", values: {} },
    ],
    turns: [turn("placeholder", { input: "{{name}}", responseMatches: "{{name}} is not" })],
  });
  assert.deepEqual(problemsOf(file), [
    'cases[0] (case "Jane Doe").values.extra: {{extra}} is used nowhere in the turns, user, success or the final expectations.',
    'cases[1] (case "jane doe").label: "jane doe" names the same suite as cases[0]; each case needs a label of its own.',
    'cases[1] (case "jane doe"): turns[0].responseMatches becomes "( is not", which is not a valid regular expression (Invalid regular expression: /( is not/: Unterminated group).',
    'cases[2] (case "nobody").values: no value for {{name}}, which turns[0].input uses.',
  ]);
  assert.deepEqual(
    problemsOf(write("no-cases", { flowName: "BasicFlow", turns: [turn("placeholder", { input: "{{name}}" })] })),
    [
      'turns[0].input: uses {{name}}, but the scenario has no cases to give it a value; add "cases", or write the text out.',
    ],
  );
});

test("a clockAt that is not an ISO 8601 instant is refused with the value and an example", () => {
  const file = write("clock", {
    flowName: "BasicFlow",
    turns: [turn("later", { clockAt: "next tuesday" }), turn("fine", { clockAt: "2027-07-16T09:30:00.000Z" })],
  });
  assert.deepEqual(problemsOf(file), [
    'turns[0].clockAt (turn "later"): "next tuesday" is not an ISO 8601 instant; use a value such as 2027-07-16T09:00:00.000Z.',
  ]);
});
