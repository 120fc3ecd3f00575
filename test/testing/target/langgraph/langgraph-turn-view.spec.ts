import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import type { LanggraphThreadState } from "../../../../src/testing/target/langgraph/langgraph-client.ts";
import { langgraphTurnView } from "../../../../src/testing/target/langgraph/langgraph-turn-view.ts";

/** A thread state as the LangGraph dev server answered GET /threads/{id}/state, recorded from the fixture project's graphs. */
function recorded(name: string): LanggraphThreadState {
  return JSON.parse(readFileSync(new URL(`../../../fixtures/langgraph-states/${name}.json`, import.meta.url), "utf8"));
}

const CHAT = { step: "/values/step", completed: "/values/done" };

test("a thread waiting at an interrupt answers with the interrupt's value and is at the node that asked", () => {
  const view = langgraphTurnView(recorded("intake-asks-name"));
  assert.deepEqual(
    { ...view, state: undefined },
    { answer: "What is your full name?", currentStep: "name_step", completed: false, state: undefined },
  );
});

test("a node that interrupts again after a refused answer is the current step though next is empty", () => {
  const state = recorded("intake-refused-age");
  assert.deepEqual(state.next, []);
  const view = langgraphTurnView(state);
  assert.equal(view.currentStep, "age_step");
  assert.equal(view.answer, "Please give your age as a whole number from 18 to 120.");
  assert.equal(view.completed, false);
  assert.deepEqual({ ...view.state, messages: undefined }, { messages: undefined, name: "Ada Lovelace" });
});

test("a finished thread is completed, at no step, and answers with its last AI message", () => {
  const state = recorded("intake-completed");
  const view = langgraphTurnView(state);
  assert.deepEqual(
    { ...view, state: undefined },
    { answer: "Thank you. Saved: Ada Lovelace, 36.", currentStep: undefined, completed: true, state: undefined },
  );
  assert.equal(view.state, state.values);
});

test("an interrupt's value that is not a string is the answer as JSON", () => {
  const state = recorded("intake-asks-name");
  state.tasks[0]!.interrupts[0]!.value = { question: "What is your full name?", field: "name" };
  assert.equal(langgraphTurnView(state).answer, '{"question":"What is your full name?","field":"name"}');
});

test("with the graph's pointers the step and completion are read from its state keys", () => {
  const refused = langgraphTurnView(recorded("chat-refused-name"), CHAT);
  assert.deepEqual(
    { ...refused, state: undefined },
    { answer: "Please tell me your first and last name.", currentStep: "NameStep", completed: false, state: undefined },
  );
  const done = langgraphTurnView(recorded("chat-done"), CHAT);
  assert.deepEqual(
    { ...done, state: undefined },
    {
      answer: "All set, Ada Lovelace: we will write to ada@example.com.",
      currentStep: "DoneStep",
      completed: true,
      state: undefined,
    },
  );
});

test("without pointers a graph that ends every run is completed at no step after each message", () => {
  const view = langgraphTurnView(recorded("chat-refused-name"));
  assert.equal(view.currentStep, undefined);
  assert.equal(view.completed, true);
});

test("a pointer that finds nothing, or no string, gives no step; a completion pointer needs true", () => {
  const state = recorded("chat-refused-name");
  const view = langgraphTurnView(state, { step: "/values/stage", completed: "/values/step" });
  assert.equal(view.currentStep, undefined);
  assert.equal(view.completed, false);
  assert.equal(langgraphTurnView(state, { step: "/values/done" }).currentStep, undefined);
});

test("a turn that added no AI message after the user's answers with nothing, not with an older reply", () => {
  const state = recorded("chat-refused-name");
  const messages = state.values["messages"] as unknown[];
  state.values["messages"] = [...messages, { type: "human", content: "Ada Lovelace" }];
  assert.equal(langgraphTurnView(state, CHAT).answer, "");
});

test("an AI message's content given as blocks is the text of its text blocks", () => {
  const state = recorded("chat-refused-name");
  const messages = state.values["messages"] as unknown[];
  state.values["messages"] = [
    ...messages.slice(0, -1),
    {
      type: "ai",
      content: [
        { type: "text", text: "Please tell me " },
        { type: "tool_use", id: "t" },
        { type: "text", text: "your name." },
      ],
    },
  ];
  assert.equal(langgraphTurnView(state, CHAT).answer, "Please tell me your name.");
});
