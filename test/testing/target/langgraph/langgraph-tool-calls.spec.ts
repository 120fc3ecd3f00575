import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import type { LanggraphThreadState } from "../../../../src/testing/target/langgraph/langgraph-client.ts";
import { langgraphToolCalls } from "../../../../src/testing/target/langgraph/langgraph-tool-calls.ts";

/** A thread's messages as the LangGraph dev server answered GET /threads/{id}/state, recorded from the fixture's agent graph. */
function messagesOf(name: string): unknown[] {
  const state = JSON.parse(
    readFileSync(new URL(`../../../fixtures/langgraph-states/${name}.json`, import.meta.url), "utf8"),
  ) as LanggraphThreadState;
  return state.values["messages"] as unknown[];
}

test("a call the tool answered is returned, its text output kept as text", () => {
  assert.deepEqual(langgraphToolCalls(messagesOf("agent-weather")), [
    {
      name: "get_weather",
      args: { city: "Lisbon" },
      output: "sunny, 24 °C in Lisbon",
      status: "returned",
      id: "call_1_0",
    },
  ]);
});

test("only the calls after the last user message are the turn's; a tool's error message fails the call with its text", () => {
  assert.deepEqual(langgraphToolCalls(messagesOf("agent-refused-booking")), [
    {
      name: "book_table",
      args: { guests: 12, day: "friday" },
      output: { error: "Error: we seat at most 8 guests, not 12\n Please fix your mistakes." },
      status: "failed",
      id: "call_5_0",
    },
  ]);
});

test("two calls of one AI message are paired with their tool messages by id, JSON output parsed", () => {
  assert.deepEqual(langgraphToolCalls(messagesOf("agent-two-calls")), [
    {
      name: "get_weather",
      args: { city: "Porto" },
      output: "sunny, 24 °C in Porto",
      status: "returned",
      id: "call_9_0",
    },
    {
      name: "book_table",
      args: { guests: 4, day: "friday" },
      output: { booking: "T-friday-4", guests: 4, day: "friday" },
      status: "returned",
      id: "call_9_1",
    },
  ]);
});

test("an invalid tool call failed with its error, its arguments the text the model sent", () => {
  assert.deepEqual(langgraphToolCalls(messagesOf("agent-invalid-call")), [
    {
      name: "book_table",
      args: '{"guests": many, "day": "monday"}',
      output: { error: "the arguments are not JSON" },
      status: "failed",
      id: "call_14_0",
    },
  ]);
});

test("a call whose tool has not run (the run stopped before the tools) is pending, with no output", () => {
  assert.deepEqual(langgraphToolCalls(messagesOf("agent-before-tools")), [
    { name: "book_table", args: { guests: 2, day: "monday" }, status: "pending", id: "call_1_0" },
  ]);
});

test("a turn whose AI message calls no tool reports none", () => {
  const chat = JSON.parse(
    readFileSync(new URL("../../../fixtures/langgraph-states/chat-done.json", import.meta.url), "utf8"),
  ) as LanggraphThreadState;
  assert.deepEqual(langgraphToolCalls(chat.values["messages"]), []);
});

test("values that keep no messages list report no calls at all: undefined, not none", () => {
  assert.equal(langgraphToolCalls(undefined), undefined);
  assert.equal(langgraphToolCalls({ name: "Ada" }), undefined);
});
