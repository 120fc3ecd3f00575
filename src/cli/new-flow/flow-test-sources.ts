import type { FlowNames } from "./flow-name.ts";

/** The scenario: a refused choice, an advance, two refused notes, completion, and a 409 after it. */
export function scenarioSource({ flow }: FlowNames): string {
  const scenario = {
    $schema: "./scenario.schema.json",
    flowName: flow,
    description:
      "A choice off the list is refused, a good one moves on to the note, a too-short note and one with a control character are refused, a good one ends the run, and a message after the end is refused.",
    turns: [
      {
        label: "choice off the list is refused",
        input: "huge",
        expectedActiveStep: "ChoiceStep",
        responseMustInclude: ["small, medium, large"],
        expectState: { ChoiceStep: {} },
      },
      {
        label: "choice saved",
        input: "medium",
        expectedActiveStep: "NoteStep",
        responseMustInclude: ["medium"],
        expectState: { ChoiceStep: { choice: "medium" } },
      },
      {
        label: "too-short note is refused",
        input: "ok",
        expectedActiveStep: "NoteStep",
        responseMustInclude: ["too short"],
        expectState: { NoteStep: {} },
      },
      {
        label: "note with a control character is refused",
        input: "No sugar\u0000, please.",
        expectedActiveStep: "NoteStep",
        responseMustInclude: ["control character"],
        expectState: { NoteStep: {} },
      },
      {
        label: "note ends the run",
        input: "No sugar, please.",
        expectedActiveStep: "NoteStep",
        completed: true,
        responseMustInclude: ["goodbye"],
        expectState: { NoteStep: { note: "No sugar, please." } },
      },
      {
        label: "completed session refuses more",
        input: "One more thing",
        expectedStatus: 409,
        responseMustInclude: ["has ended"],
      },
    ],
    finalState: { ChoiceStep: { choice: "medium" }, NoteStep: { note: "No sugar, please." } },
    finalExecution: [
      { turn: 1, step: "ChoiceStep", name: "save_choice", outcome: "stay" },
      { turn: 2, step: "ChoiceStep", name: "save_choice", outcome: "advance", to: "NoteStep" },
      { turn: 3, step: "NoteStep", name: "save_note", outcome: "stay" },
      { turn: 4, step: "NoteStep", name: "save_note", outcome: "stay" },
      { turn: 5, step: "NoteStep", name: "save_note", outcome: "complete" },
    ],
    // ChoiceStep's memory: each answer, the tool's call and its result, the refused one included.
    finalMemory: {
      ChoiceStep: [
        { role: "user", content: "huge" },
        { role: "assistant" },
        { role: "tool", name: "save_choice" },
        { role: "assistant" },
        { role: "user", content: "medium" },
        { role: "assistant" },
        { role: "tool", name: "save_choice" },
      ],
    },
  };
  return `${JSON.stringify(scenario, null, 2)}\n`;
}

export function specSource({ flow, folder, kebab }: FlowNames): string {
  return `import assert from "node:assert/strict";
import { ${flow} } from "../../src/flows/${folder}/${kebab}.ts";
import { registeredFlows } from "../../src/flows/index.ts";
import { describeFlowScenarios, stepState } from "../../src/testing/index.ts";

// Given the flow itself, the checks are typed by its steps: a misspelt step does not compile.
describeFlowScenarios(${flow}, {
  flows: registeredFlows,
  everyScenario: {
    // After every turn of every ${flow} scenario: a stored choice is one of the list.
    eachTurn: (head) => {
      if (!head.steps["ChoiceStep"]) return;
      const { choice } = stepState(head, "ChoiceStep");
      if (choice !== undefined) assert.ok(["small", "medium", "large"].includes(choice), \`choice \${choice}\`);
    },
  },
});
`;
}
