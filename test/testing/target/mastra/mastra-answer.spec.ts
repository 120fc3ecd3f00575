import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { isFlowcheckError } from "../../../../src/errors.ts";
import { readMastraGenerate, readMastraStream } from "../../../../src/testing/target/mastra/mastra-answer.ts";

// Answers recorded from the fixture's Mastra server (@mastra/core 1.71, @mastra/hono 1.7.9): a
// weather turn (a tool that returned), a booking that failed (the tool threw), a model that failed
// mid-run, and the failed booking again from /generate.
const recorded = (name: string) =>
  readFileSync(new URL(`../../../fixtures/mastra-streams/${name}`, import.meta.url), "utf8");
const WEATHER = recorded("weather.sse");
const FAILED_BOOKING = recorded("failed-booking.sse");

/** The stream without its chunks of `type`. */
const without = (stream: string, type: string) =>
  stream
    .split("\n\n")
    .filter((frame) => !frame.startsWith("data: {") || JSON.parse(frame.slice(6)).type !== type)
    .join("\n\n");

function invalidAnswer(pattern: RegExp) {
  return (error: unknown) => isFlowcheckError(error, "target_invalid_answer") && pattern.test(error.message);
}

test("a stream's text is its text-delta chunks joined, its tool call paired with its result by id", () => {
  const answer = readMastraStream(WEATHER);
  assert.equal(answer.text, "It is 21°C in Lisbon.");
  assert.deepEqual(answer.toolCalls, [
    {
      name: "lookupWeather",
      args: { city: "Lisbon" },
      id: "call-17",
      output: { city: "Lisbon", tempC: 21 },
      status: "returned",
    },
  ]);
  assert.match(answer.messageId ?? "", /^[0-9a-f-]{36}$/);
});

test("a tool that threw is a failed call whose output is its error's text, from the tool-error chunk", () => {
  assert.deepEqual(readMastraStream(FAILED_BOOKING).toolCalls, [
    {
      name: "bookTable",
      args: { restaurant: "Tasca", people: 12 },
      id: "call-18",
      output: { error: "no table for 12 at Tasca" },
      status: "failed",
    },
  ]);
});

test("a call the stream names but never completes is pending, with no output", () => {
  const [call] = readMastraStream(without(WEATHER, "tool-result")).toolCalls;
  assert.deepEqual(call, { name: "lookupWeather", args: { city: "Lisbon" }, id: "call-17", status: "pending" });
});

test("a stream cut before data: [DONE] is refused, saying the server stopped mid-answer", () => {
  assert.throws(
    () => readMastraStream(WEATHER.slice(0, WEATHER.indexOf('data: {"type":"text-end"'))),
    invalidAnswer(/^the stream ends without "data: \[DONE\]" after 9 chunks .*the server stopped mid-answer/),
  );
});

test("a stream that ends with data: [DONE] but no finish chunk is refused: the agent's run did not end", () => {
  assert.throws(
    () => readMastraStream(without(WEATHER, "finish")),
    invalidAnswer(/^the stream ends with "data: \[DONE\]" but no finish chunk after 11 chunks/),
  );
});

test("an error chunk is refused with the error's message", () => {
  assert.throws(
    () => readMastraStream(recorded("model-error.sse")),
    invalidAnswer(/^the stream has an error chunk: "the model crashed"; see the server's log$/),
  );
});

test("a line that is not a JSON object is refused, naming the chunk", () => {
  assert.throws(
    () => readMastraStream(`data: {"type":"start","payload":{}}\n\ndata: nope\n\ndata: [DONE]\n\n`),
    invalidAnswer(/^chunk 2 of the stream is "nope", not a JSON object$/),
  );
});

test("a generate body's text, and its steps' tool calls with a failed call's error-text as its error", () => {
  const answer = readMastraGenerate(JSON.parse(recorded("failed-booking-generate.json")));
  assert.equal(answer.text, 'Sorry, bookTable failed: "no table for 12 at Tasca".');
  assert.deepEqual(answer.toolCalls, [
    {
      name: "bookTable",
      args: { restaurant: "Tasca", people: 12 },
      id: "call-19",
      output: { error: "no table for 12 at Tasca" },
      status: "failed",
    },
  ]);
});

test("a generate body without a text is refused, quoting it", () => {
  assert.throws(() => readMastraGenerate({ error: "x" }), invalidAnswer(/^the body has no "text": \{"error":"x"\}/));
});
