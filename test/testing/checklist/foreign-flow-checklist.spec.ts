import assert from "node:assert/strict";
import { test } from "node:test";
import type { CalledTool } from "../../../src/testing/checks/called-tool.ts";
import type { Check } from "../../../src/testing/checks/check.ts";
import { foreignFlowChecklist } from "../../../src/testing/checklist/foreign-flow-checklist.ts";
import { runResultsOf } from "../../../src/testing/report/merge-run-results.ts";
import type { ConversationResult, RunResults, TurnResult } from "../../../src/testing/report/run-results.ts";

const INFO = { startedAt: "2027-01-01T00:00:00.000Z", endedAt: "2027-01-01T00:00:01.000Z" };
const SERVED_BY = "graph intake at http://127.0.0.1:1 (target graphs, langgraph)";

const check = (contract: Check["contract"], name: string, outcome: Check["outcome"] = "passed"): Check => ({
  contract,
  name,
  outcome,
  ...(outcome === "skipped" ? { message: "the target keeps no state to read" } : {}),
});

/** A played turn of the graph, its checks as given, stored on `step`. */
function turn(number: number, step: string, completed: boolean, checks: Check[]): TurnResult {
  return {
    number,
    label: `turn ${number}`,
    input: "hello",
    outcome: "passed",
    checks,
    stored: { step, runStatus: completed ? "completed" : "running" },
  } as TurnResult;
}

function conversation(name: string, turns: TurnResult[], ran = true): ConversationResult {
  return {
    id: `conversations/${name}.scenario.json#${name}`,
    file: `conversations/${name}.scenario.json`,
    name,
    flowName: "intake",
    repeat: { index: 1, of: 1 },
    outcome: ran ? "passed" : "skipped",
    ran,
    pins: {},
    models: {},
    tokens: { model: { input: 0, output: 0 }, judge: { input: 0, output: 0 } },
    turns,
  };
}

function resultsOf(conversations: ConversationResult[], steps: Record<string, boolean>): RunResults {
  const results = runResultsOf(
    conversations.map((entry) => ({ conversation: entry })),
    INFO,
  );
  return { ...results, coverage: { intake: { scenarios: 1, steps, tools: {}, servedBy: SERVED_BY } } };
}

const statusesOf = (results: RunResults) =>
  Object.fromEntries(foreignFlowChecklist("intake", results).points.map((point) => [point.id, point.status]));

const asserted = [check("expectation", "responseMustInclude[0]"), check("persisted", "expectedActiveStep")];

test("a target's flow is judged on its played turns: every turn asserted and the run completed are proved, and what such a target cannot show is n/a", () => {
  const results = resultsOf(
    [
      conversation("intake", [
        turn(1, "age_step", false, [...asserted, { ...check("persisted", "completed"), expected: "running" }]),
        turn(2, "summary_step", true, [...asserted, { ...check("persisted", "completed"), expected: "completed" }]),
      ]),
    ],
    { age_step: true, summary_step: true },
  );
  const checklist = foreignFlowChecklist("intake", results);
  assert.equal(checklist.judged, true);
  assert.equal(checklist.strict, false);
  const statuses = statusesOf(results);
  assert.deepEqual(
    Object.entries(statuses)
      .filter(([, status]) => status === "proved")
      .map(([id]) => id),
    ["3", "7", "steps"],
  );
  for (const id of ["1", "2", "4", "5", "6", "8", "9", "10", "11", "12", "tools", "transitions"])
    assert.equal(statuses[id], "not applicable", id);
  const completed = checklist.points.find((point) => point.id === "7");
  assert.match(completed!.detail, /intake turn 2 'turn 2': answered completed, stored runStatus completed/);
});

test("a turn that asserts no stored step, and a run never expected to complete, are the scenario's gaps, named with the turn", () => {
  const results = resultsOf(
    [conversation("intake", [turn(1, "age_step", false, [check("expectation", "responseMustInclude[0]")])])],
    { age_step: true, summary_step: false },
  );
  const checklist = foreignFlowChecklist("intake", results);
  const point = (id: string) => checklist.points.find((entry) => entry.id === id)!;
  assert.equal(point("3").status, "missing");
  assert.match(point("3").detail, /intake turn 1 'turn 1': add expectedActiveStep, the run status \(completed\)/);
  assert.equal(point("7").status, "missing");
  assert.equal(point("steps").status, "missing");
  assert.match(point("steps").detail, /no scenario reached summary_step/);
});

test("a stored step the scenario expects but the target cannot show (its check skipped) is not the scenario's gap", () => {
  const skipped = [
    check("expectation", "responseMustInclude[0]"),
    check("persisted", "expectedActiveStep", "skipped"),
    check("persisted", "completed", "skipped"),
  ];
  const statuses = statusesOf(resultsOf([conversation("intake", [turn(1, "age_step", false, skipped)])], {}));
  assert.equal(statuses["3"], "proved");
  // A completion the store cannot show proves nothing: point 7 needs the stored run status.
  assert.equal(statuses["7"], "missing");
});

test("a target's flow is not judged while one of its conversations did not run, each point but the n/a ones saying so", () => {
  const results = resultsOf(
    [conversation("intake", [turn(1, "age_step", false, asserted)]), conversation("other", [], false)],
    { age_step: true },
  );
  const checklist = foreignFlowChecklist("intake", results);
  assert.equal(checklist.judged, false);
  assert.deepEqual(checklist.scenarios, { total: 2, ran: 1 });
  for (const id of ["3", "7", "steps"]) {
    const point = checklist.points.find((entry) => entry.id === id)!;
    assert.equal(point.status, "not judged", id);
    assert.equal(point.detail, "1 of its 2 conversations did not run");
  }
});

const saveName: CalledTool = { name: "save_name", args: { name: "Ada" }, output: { saved: true }, status: "returned" };
const refusedAge: CalledTool = {
  name: "save_age",
  args: { age: -1 },
  output: { error: "no such age" },
  status: "failed",
};

/** A turn of the graph that reported `calls` and changed what `changed` says. */
function called(number: number, step: string, calls: CalledTool[], changed: TurnResult["changed"]): TurnResult {
  return { ...turn(number, step, false, asserted), toolCalls: calls, changed };
}

const pointOf = (results: RunResults, id: string) =>
  foreignFlowChecklist("intake", results).points.find((point) => point.id === id)!;

test("where its answers report tool calls, a failed call on a turn that stayed proves 4, a call on a turn that moved on and stored proves 5, and the tools called are listed", () => {
  const turns = [
    called(1, "name_step", [], { step: { from: null, to: "name_step" } }),
    called(2, "age_step", [saveName], {
      step: { from: "name_step", to: "age_step" },
      state: { name: { value: { from: undefined, to: "Ada" } } },
    }),
    called(3, "age_step", [refusedAge], {}),
  ];
  const results = resultsOf([conversation("intake", turns)], { name_step: true, age_step: true });
  results.coverage!["intake"]!.tools = { save_age: ["failed"], save_name: ["returned"] };
  assert.deepEqual(
    ["4", "5", "tools"].map((id) => [id, pointOf(results, id).status, pointOf(results, id).detail]),
    [
      ["4", "proved", "save_age failed and the step stayed: intake turn 3 'turn 3'"],
      ["5", "proved", "save_name on intake turn 2 'turn 2', which moved name_step → age_step and stored state"],
      ["tools", "proved", "2 tools called: save_age (failed); save_name (returned)"],
    ],
  );
});

test("where its answers report tool calls but no refusal or save was played, points 4 and 5 say what turn to add", () => {
  const turns = [called(1, "name_step", [saveName], { step: { from: null, to: "name_step" } })];
  const results = resultsOf([conversation("intake", turns)], { name_step: true });
  assert.equal(pointOf(results, "4").status, "missing");
  assert.match(pointOf(results, "4").detail, /add a turn whose input a tool refuses \(its output an error\)/);
  assert.equal(pointOf(results, "5").status, "missing");
});

test("a target whose answers report no tool calls keeps 4, 5 and tools not applicable, saying why; one whose state is not read, 4 and 5", () => {
  const unreported = resultsOf([conversation("intake", [turn(1, "name_step", false, asserted)])], { name_step: true });
  for (const id of ["4", "5", "tools"]) {
    assert.equal(pointOf(unreported, id).status, "not applicable");
    assert.match(
      pointOf(unreported, id).detail,
      /this target's answers report no tool calls: give its entry answer\.toolCalls/,
    );
  }
  const { stored: _stored, ...unstored } = called(1, "name_step", [refusedAge], undefined);
  const stateless = resultsOf([conversation("intake", [unstored as TurnResult])], {});
  assert.match(pointOf(stateless, "4").detail, /state is not read/);
  assert.equal(pointOf(stateless, "5").status, "not applicable");
});

test("a target whose answers report tool calls but whose turns called none has no tool to prove 4, 5 and tools on: they are not applicable, saying so", () => {
  const turns = [called(1, "name_step", [], { step: { from: null, to: "name_step" } }), called(2, "name_step", [], {})];
  const results = resultsOf([conversation("intake", turns)], { name_step: true });
  for (const id of ["4", "5", "tools"]) {
    assert.equal(pointOf(results, id).status, "not applicable", id);
    assert.match(pointOf(results, id).detail, /no turn called a tool, so no tool of it is known/);
  }
});
