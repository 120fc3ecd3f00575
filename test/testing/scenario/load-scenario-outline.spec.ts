import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { loadScenario } from "../../../src/testing/scenario/load-scenario.ts";
import type { FlowOutline } from "../../../src/testing/scenario/meaning-problems.ts";
import { listedFlowOutline } from "../../../src/testing/target/flow-outline-of.ts";
import type { TargetEntry } from "../../../src/testing/target/target-config.ts";
import { BasicFlow } from "../../fixtures/flows/index.ts";
import { refusalProblems as problemsOf } from "../../support/scenario-refusal.ts";
import { tempDir } from "../../support/temp-path.ts";

// A flow a target of another kind serves is checked against the outline of steps that target
// lists; our engine's flows keep their own rules.
const intake: FlowOutline = {
  name: "intake",
  stepNames: ["name_step", "age_step"],
  servedBy: "graph intake of target graphs (http://127.0.0.1:2024)",
  kind: "langgraph",
};

let dir: { path: string; remove: () => void };
before(async () => {
  dir = await tempDir("load-scenario-outline");
});
after(() => dir.remove());

function write(name: string, content: unknown): string {
  const file = join(dir.path, `${name}.scenario.json`);
  writeFileSync(file, JSON.stringify(content, null, 2));
  return file;
}

test("a scenario of a flow a target serves loads against the target's snake_case steps, its expectState keyed by state with any value", () => {
  const file = write("intake", {
    flowName: "intake",
    turns: [{ label: "asks", input: "hi", expectedActiveStep: "name_step", expectState: { name: null, age: 36 } }],
  });
  const loaded = loadScenario(file, [BasicFlow], { outline: intake });
  assert.equal(loaded.scenario.turns[0]!.expectedActiveStep, "name_step");
});

test("a scenario of a flow a target serves states its finalState by the keys of the target's state, each any JSON value", () => {
  const file = write("flat-final", {
    flowName: "intake",
    turns: [{ label: "asks", input: "hi", expectedActiveStep: "name_step" }],
    finalState: { name: "Ada", city: "Lisbon", age: 36, address: { zip: "1100" }, confirmed: null },
  });
  const loaded = loadScenario(file, [BasicFlow], { outline: intake });
  assert.deepEqual(loaded.scenario.finalState, {
    name: "Ada",
    city: "Lisbon",
    age: 36,
    address: { zip: "1100" },
    confirmed: null,
  });
});

test("our engine's flow refuses a flat finalState and success.finalState: each key must be a step, each value an object", () => {
  const file = write("engine-flat-final", {
    flowName: "BasicFlow",
    turns: [{ label: "asks", input: "hi", expectedActiveStep: "NameStep" }],
    user: { persona: "Ada", goal: "give a name" },
    success: { completed: true, finalState: { NameStep: "Ada" } },
    finalState: { name: "Ada", WeatherStep: [72] },
  });
  assert.deepEqual(
    problemsOf(() => loadScenario(file, [BasicFlow])),
    [
      'finalState.name: "name" is not a step of BasicFlow. Its steps are NameStep, WeatherStep, AddressStep. BasicFlow is a flowcheck flow, whose step names are PascalCase.',
      'finalState.name: "Ada" is not an object; a flowcheck flow keeps each step\'s state as an object, matched partially.',
      "finalState.WeatherStep: [72] is not an object; a flowcheck flow keeps each step's state as an object, matched partially.",
      'success.finalState.NameStep: "Ada" is not an object; a flowcheck flow keeps each step\'s state as an object, matched partially.',
    ],
  );
});

test("a step the target does not list is refused naming where the steps come from, with the closest one", () => {
  const file = write("typo", {
    flowName: "intake",
    turns: [{ label: "asks", input: "hi", expectedActiveStep: "name_stp" }],
  });
  assert.deepEqual(
    problemsOf(() => loadScenario(file, [BasicFlow], { outline: intake })),
    [
      `turns[0].expectedActiveStep (turn "asks"): "name_stp" is not a step of graph intake of target graphs (http://127.0.0.1:2024); did you mean name_step? Its steps are name_step, age_step.`,
    ],
  );
});

test("a target that lists no steps leaves the step names to be checked when it is asked at start", () => {
  const file = write("unlisted", {
    flowName: "intake",
    turns: [{ label: "asks", input: "hi", expectedActiveStep: "anything_at_all" }],
  });
  assert.doesNotThrow(() => loadScenario(file, [], { outline: { ...intake, stepNames: undefined } }));
});

test("our engine's flow refuses a snake_case step and a state that is not an object, saying which rule applies", () => {
  const file = write("engine", {
    flowName: "BasicFlow",
    turns: [{ label: "asks", input: "hi", expectedActiveStep: "name_step", expectState: { NameStep: "John" } }],
  });
  const problems = problemsOf(() => loadScenario(file, [BasicFlow]));
  assert.equal(problems.length, 2, problems.join("\n"));
  assert.match(
    problems.find((problem) => problem.includes("expectedActiveStep")) ?? "",
    /"name_step" is not a step of BasicFlow.* BasicFlow is a flowcheck flow, whose step names are PascalCase\.$/,
  );
  assert.match(
    problems.find((problem) => problem.includes("expectState")) ?? "",
    /expectState\.NameStep \(turn "asks"\): "John" is not an object; a flowcheck flow keeps each step's state as an object/,
  );
});

test("a langgraph target's flow refuses the turn keys of a content type, each at its path with the turn's label and why; an http target's flow takes them", () => {
  const file = write("rendered", {
    flowName: "intake",
    turns: [
      {
        label: "as csv",
        input: "hi",
        expectedActiveStep: "name_step",
        accept: "text/csv",
        expectContentType: "text/csv",
        expectCsvRows: [{ name: "Ada" }],
      },
    ],
  });
  const graphs: TargetEntry = {
    kind: "langgraph",
    baseUrl: "http://127.0.0.1:2024",
    graphs: { intake: { steps: ["name_step"] } },
  };
  const problems = problemsOf(() => loadScenario(file, [], { outline: listedFlowOutline("graphs", graphs, "intake") }));
  assert.deepEqual(
    problems,
    ["accept", "expectContentType", "expectCsvRows"].map(
      (key) =>
        `turns[0].${key} (turn "as csv"): graph intake of target graphs (http://127.0.0.1:2024) answers each ` +
        "run's values as JSON whatever is asked, so there is no other content type to ask for or check and no " +
        "CSV to read rows from; drop the key, or play the scenario against a target that renders its answers (http or flowcheck).",
    ),
  );
  const shop: TargetEntry = {
    kind: "http",
    baseUrl: "http://127.0.0.1:3100",
    turn: { path: "/chat", body: {} },
    answer: {},
  };
  assert.doesNotThrow(() => loadScenario(file, [], { outline: listedFlowOutline("shop", shop, "intake") }));
});

test("a scenario played against a LangGraph target is checked against the graph even when a flow of our engine has its name", () => {
  const graph: FlowOutline = { ...intake, name: "BasicFlow", stepNames: ["name_step"] };
  const file = write("same-name", {
    flowName: "BasicFlow",
    turns: [{ label: "confirms", input: { confirm: true }, expectedActiveStep: "name_step" }],
  });
  const loaded = loadScenario(file, [BasicFlow], { outline: graph });
  assert.deepEqual(loaded.scenario.turns[0]!.input, { confirm: true });
  // A flowcheck server runs our engine's BasicFlow: its steps and text inputs are the rules.
  const server: FlowOutline = { ...graph, kind: "flowcheck" };
  const problems = problemsOf(() => loadScenario(file, [BasicFlow], { outline: server }));
  assert.equal(problems.length, 2, problems.join("\n"));
  assert.match(
    problems.join("\n"),
    /turns\[0\]\.input \(turn "confirms"\): \{"confirm":true\} is an object, but BasicFlow is a flowcheck flow/,
  );
  assert.match(problems.join("\n"), /turns\[0\]\.expectedActiveStep.*name_step/);
});

test("an agent of a Mastra target has no steps: its turns name none, and one that does is refused saying so", () => {
  const entry: TargetEntry = { kind: "mastra", baseUrl: "http://127.0.0.1:4111" };
  const outline = listedFlowOutline("desk", entry, "tripDesk");
  const stepless = write("agent", {
    flowName: "tripDesk",
    turns: [{ label: "asks", input: "Weather in Lisbon?", expectState: { city: "Lisbon" } }],
  });
  assert.equal(loadScenario(stepless, [BasicFlow], { outline }).scenario.turns.length, 1);
  const stepped = write("agent-step", {
    flowName: "tripDesk",
    turns: [{ label: "asks", input: { city: "Lisbon" }, expectedActiveStep: "NameStep" }],
  });
  assert.deepEqual(
    problemsOf(() => loadScenario(stepped, [BasicFlow], { outline })),
    [
      `turns[0].expectedActiveStep (turn "asks"): tripDesk of target desk (http://127.0.0.1:4111) is a Mastra agent, which has no steps; drop the key (expectState matches the thread's working memory).`,
      `turns[0].input (turn "asks"): {"city":"Lisbon"} is an object, but tripDesk of target desk (http://127.0.0.1:4111) is a Mastra agent, which takes the user's message as text; only a LangGraph target resumes an interrupt with a JSON value. Write the input as a string.`,
    ],
  );
});

test("an expected call's result, our engine's outcome, is refused on a target of another kind, naming the file, the path and the kind", () => {
  const file = write("result-elsewhere", {
    flowName: "intake",
    turns: [
      {
        label: "asks",
        input: "hi",
        expectedActiveStep: "name_step",
        expectToolCalls: [
          { name: "save_name", output: { saved: true } },
          { name: "save_age", result: "advance" },
        ],
      },
    ],
  });
  const problems = problemsOf(() => loadScenario(file, [BasicFlow], { outline: intake }));
  assert.deepEqual(problems, [
    `turns[0].expectToolCalls[1].result (turn "asks"): "advance" is our engine's outcome of a call, and graph intake of target graphs (http://127.0.0.1:2024) is a langgraph target, whose calls have none; match what the tool returned with output instead, or drop result.`,
  ]);
  assert.throws(
    () => loadScenario(file, [BasicFlow], { outline: intake }),
    (error: Error) => {
      assert.match(error.message, /result-elsewhere\.scenario\.json/);
      assert.equal((error as Error & { code?: string }).code, "scenario_invalid");
      return true;
    },
  );
});

test("an expected call's result keeps its meaning for our engine's flows, on a flowcheck server too", () => {
  const turns = [
    {
      label: "name",
      input: "John Doe",
      expectedActiveStep: "NameStep",
      expectToolCalls: [{ name: "save_name", result: "stay" }],
    },
  ];
  const file = write("result-engine", { flowName: "BasicFlow", turns });
  assert.doesNotThrow(() => loadScenario(file, [BasicFlow]));
  const served: FlowOutline = {
    name: "BasicFlow",
    stepNames: undefined,
    servedBy: "BasicFlow of target api",
    kind: "flowcheck",
  };
  assert.doesNotThrow(() => loadScenario(file, [], { outline: served }));
});
