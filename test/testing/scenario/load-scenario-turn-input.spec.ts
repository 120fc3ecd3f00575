import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { loadScenario } from "../../../src/testing/scenario/load-scenario.ts";
import type { FlowOutline } from "../../../src/testing/scenario/meaning-problems.ts";
import { BasicFlow } from "../../fixtures/flows/index.ts";
import { refusalProblems } from "../../support/scenario-refusal.ts";
import { tempDir } from "../../support/temp-path.ts";

// A turn's input is text, except where a LangGraph target resumes the thread's pending interrupt
// with it (`command.resume`): there it may be any JSON value. The loader knows which from the
// flow's target and refuses a value elsewhere before any turn runs.

const graph: FlowOutline = {
  name: "intake",
  stepNames: ["name_step", "confirm_step"],
  servedBy: "graph intake of target graphs (http://127.0.0.1:2024)",
  kind: "langgraph",
};
const ONLY_LANGGRAPH = "only a LangGraph target resumes an interrupt with a JSON value. Write the input as a string.";

let dir: { path: string; remove: () => void };
before(async () => {
  dir = await tempDir("load-scenario-turn-input");
});
after(() => dir.remove());

function write(name: string, flowName: string, turns: Record<string, unknown>[]): string {
  const file = join(dir.path, `${name}.scenario.json`);
  writeFileSync(file, JSON.stringify({ flowName, turns }, null, 2));
  return file;
}

/** The problems the load is refused with; its message names the file first. */
function problemsOf(load: () => unknown): string[] {
  const problems = refusalProblems(load);
  assert.throws(load, (error: Error) => error.message.startsWith(dir.path), "the error names the file");
  return problems;
}

test("a LangGraph target's scenario loads a JSON value of every kind as a turn's input, kept as it is", () => {
  const values = [{ confirm: true, note: ["a", 1] }, [1, "two"], 42, false, null];
  const file = write(
    "graph-resumes",
    "intake",
    values.map((input, index) => ({ label: `resumes ${index}`, input, expectedActiveStep: "confirm_step" })),
  );
  const loaded = loadScenario(file, [BasicFlow], { outline: graph });
  assert.deepEqual(
    loaded.scenario.turns.map((turn) => turn.input),
    values,
  );
});

test("a flowcheck flow refuses every input that is not text at once, each with its path, label, value cut short and why", () => {
  const long = { answer: "x".repeat(80) };
  const file = write("engine-json", "BasicFlow", [
    { label: "names", input: "John Wick", expectedActiveStep: "WeatherStep" },
    { label: "confirm", input: { approved: true }, expectedActiveStep: "WeatherStep" },
    { label: "counts", input: 3, expectedActiveStep: "WeatherStep" },
    { label: "long", input: long, expectedActiveStep: "WeatherStep" },
  ]);
  const why = "BasicFlow is a flowcheck flow, which takes a text message";
  assert.deepEqual(
    problemsOf(() => loadScenario(file, [BasicFlow])),
    [
      `turns[1].input (turn "confirm"): {"approved":true} is an object, but ${why}; ${ONLY_LANGGRAPH}`,
      `turns[2].input (turn "counts"): 3 is a number, but ${why}; ${ONLY_LANGGRAPH}`,
      `turns[3].input (turn "long"): ${JSON.stringify(long).slice(0, 60)}… is an object, but ${why}; ${ONLY_LANGGRAPH}`,
    ],
  );
});

test("an http target refuses an input that is not text, since {{input}} and {{messages}} carry the user's message as text", () => {
  const file = write("http-json", "support", [{ label: "confirm", input: [true], expectedActiveStep: "ConfirmStep" }]);
  const outline: FlowOutline = {
    name: "support",
    stepNames: undefined,
    servedBy: "support of target api (http://127.0.0.1:4000)",
    kind: "http",
  };
  assert.deepEqual(
    problemsOf(() => loadScenario(file, [], { outline })),
    [
      `turns[0].input (turn "confirm"): [true] is an array, but support of target api (http://127.0.0.1:4000) is an http target, whose {{input}} and {{messages}} carry the user's message as text; ${ONLY_LANGGRAPH}`,
    ],
  );
});

test("a flowcheck server named as a target refuses an input that is not text, with its other problems", () => {
  const file = write("server-json", "BasicFlow", [{ label: "confirm", input: null, expectedActiveStep: "NameStp" }]);
  const outline: FlowOutline = {
    name: "BasicFlow",
    stepNames: ["NameStep", "WeatherStep"],
    servedBy: "BasicFlow of target staging (http://127.0.0.1:3000)",
    kind: "flowcheck",
  };
  assert.deepEqual(
    problemsOf(() => loadScenario(file, [], { outline })),
    [
      `turns[0].input (turn "confirm"): null is null, but BasicFlow of target staging (http://127.0.0.1:3000) is a flowcheck flow, which takes a text message; ${ONLY_LANGGRAPH}`,
      'turns[0].expectedActiveStep (turn "confirm"): "NameStp" is not a step of BasicFlow of target staging (http://127.0.0.1:3000); did you mean NameStep? Its steps are NameStep, WeatherStep.',
    ],
  );
});

test("an empty input is refused for every target, saying both forms an input may take", () => {
  const file = write("empty", "intake", [{ label: "says nothing", input: "", expectedActiveStep: "name_step" }]);
  assert.deepEqual(
    problemsOf(() => loadScenario(file, [], { outline: graph })),
    [
      'turns[0].input (turn "says nothing"): "" is an empty string; expected a non-empty message, or (for a LangGraph target) a JSON value other than a string to resume an interrupt with.',
    ],
  );
});
