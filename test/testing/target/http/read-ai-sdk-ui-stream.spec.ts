import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { readAiSdkUiStream } from "../../../../src/testing/target/http/read-ai-sdk-ui-stream.ts";
import { readPointer } from "../../../../src/testing/target/json-pointer.ts";

// A UI message stream in the AI SDK v5 shape: start with metadata, text parts around tool parts,
// the same data part twice, message-metadata, finish with metadata, then [DONE].
const RECORDED = readFileSync(new URL("../../../fixtures/http-streams/ai-sdk-ui.sse", import.meta.url), "utf8");

const part = (value: object) => `data: ${JSON.stringify(value)}\n\n`;
const DONE = "data: [DONE]\n\n";

test("a recorded stream's text is its text deltas joined, tool parts left out", () => {
  assert.equal(readAiSdkUiStream(RECORDED).text, "Your booking is for two nights.");
});

test("the final object holds the text, the metadata merged deeply from start, message-metadata and finish, and each data part's last data", () => {
  assert.deepEqual(readAiSdkUiStream(RECORDED).final, {
    text: "Your booking is for two nights.",
    metadata: { session: "thread-42", model: "gpt-4o", step: "BookStep", usage: { inputTokens: 12, outputTokens: 7 } },
    data: { flow: { step: "BookStep", done: false } },
  });
});

test("pointers such as /metadata/step and /data/flow/step read the final object", () => {
  const { final } = readAiSdkUiStream(RECORDED);
  assert.deepEqual(readPointer(final, "/metadata/step"), { found: true, value: "BookStep" });
  assert.deepEqual(readPointer(final, "/data/flow/step"), { found: true, value: "BookStep" });
  assert.deepEqual(readPointer(final, "/metadata/session"), { found: true, value: "thread-42" });
});

test("a stream without metadata or data parts has an empty metadata and data", () => {
  const body = part({ type: "text-start", id: "t" }) + part({ type: "text-delta", id: "t", delta: "Hi" }) + DONE;
  assert.deepEqual(readAiSdkUiStream(body).final, { text: "Hi", metadata: {}, data: {} });
});

test("an error part is target_invalid_answer quoting its errorText", () => {
  const body = part({ type: "start" }) + part({ type: "error", errorText: "model overloaded" }) + DONE;
  assert.throws(() => readAiSdkUiStream(body), {
    code: "target_invalid_answer",
    message: `the ai-sdk-ui stream has an error part: "model overloaded"; see the server's log`,
  });
});

test("an abort part is target_invalid_answer with its reason", () => {
  assert.throws(() => readAiSdkUiStream(part({ type: "abort", reason: "user cancelled" }) + DONE), {
    code: "target_invalid_answer",
    message: 'the ai-sdk-ui stream was aborted: "user cancelled"',
  });
});

test("a stream cut before data: [DONE], even after its finish part, is target_invalid_answer", () => {
  const body = part({ type: "text-delta", id: "t", delta: "Hi" }) + part({ type: "finish" });
  assert.throws(() => readAiSdkUiStream(body), {
    code: "target_invalid_answer",
    message: /^the ai-sdk-ui stream ends without its terminator "data: \[DONE\]" after 2 events/,
  });
});

test("a part without a type is target_invalid_answer naming it", () => {
  assert.throws(() => readAiSdkUiStream(part({ delta: "Hi" }) + DONE), {
    code: "target_invalid_answer",
    message: 'part 1 of the ai-sdk-ui stream has no "type": {"delta":"Hi"}',
  });
});

test("a recorded stream's tool call is reported with its arguments and output, returned", () => {
  assert.deepEqual(readAiSdkUiStream(RECORDED).toolCalls, [
    {
      name: "priceStay",
      args: { nights: 2 },
      id: "call_fJdQDqnXeGxTmr4E3YPSR7Ar",
      output: { cents: 30000 },
      status: "returned",
    },
  ]);
});

test("a failed call's output is its errorText under error, a denied call has none, and a call never completed is pending", () => {
  const body =
    part({ type: "tool-input-available", toolCallId: "a", toolName: "bookRoom", input: { guest: "" } }) +
    part({ type: "tool-output-error", toolCallId: "a", errorText: "no guest" }) +
    part({ type: "tool-input-available", toolCallId: "b", toolName: "charge", input: '{"cents":5}' }) +
    part({ type: "tool-output-denied", toolCallId: "b" }) +
    part({ type: "tool-input-start", toolCallId: "c", toolName: "askUser" }) +
    part({ type: "tool-input-available", toolCallId: "d", toolName: "poll", input: {} }) +
    part({ type: "tool-output-available", toolCallId: "d", output: "1", preliminary: true }) +
    DONE;
  assert.deepEqual(readAiSdkUiStream(body).toolCalls, [
    { name: "bookRoom", args: { guest: "" }, id: "a", output: { error: "no guest" }, status: "failed" },
    { name: "charge", args: { cents: 5 }, id: "b", status: "denied" },
    { name: "askUser", args: undefined, id: "c", status: "pending" },
    { name: "poll", args: {}, id: "d", status: "pending" },
  ]);
});

test("a preliminary output is replaced by the final one, text that is JSON parsed", () => {
  const body =
    part({ type: "tool-input-available", toolCallId: "a", toolName: "search", input: { q: "x" } }) +
    part({ type: "tool-output-available", toolCallId: "a", output: { hits: 0 }, preliminary: true }) +
    part({ type: "tool-output-available", toolCallId: "a", output: '{"hits":3}' }) +
    DONE;
  assert.deepEqual(readAiSdkUiStream(body).toolCalls, [
    { name: "search", args: { q: "x" }, id: "a", output: { hits: 3 }, status: "returned" },
  ]);
});

test("a stream without tool parts reports no tool calls", () => {
  assert.deepEqual(readAiSdkUiStream(part({ type: "start" }) + DONE).toolCalls, []);
});

test("a tool output for a call id no input named is target_invalid_answer naming the id and the fix", () => {
  const body =
    part({ type: "tool-input-available", toolCallId: "call-1", toolName: "findRoom", input: {} }) +
    part({ type: "tool-output-available", toolCallId: "call-9", output: {} }) +
    DONE;
  assert.throws(() => readAiSdkUiStream(body), {
    code: "target_invalid_answer",
    message:
      'part 2 of the ai-sdk-ui stream is a tool-output-available for the tool call "call-9", which no tool-input-start ' +
      "or tool-input-available named before; the AI SDK's client refuses it. The route must send a call's input before " +
      "its output, under the same toolCallId",
  });
});

test("a text delta for a part never started is target_invalid_answer, as the SDK's client refuses it", () => {
  assert.throws(() => readAiSdkUiStream(part({ type: "text-delta", id: "t", delta: "Hi" }) + DONE), {
    code: "target_invalid_answer",
    message: /^part 1 of the ai-sdk-ui stream is a text-delta for the part "t", which no text-start began/,
  });
});

test("a chunk type the protocol lacks is target_invalid_answer naming it", () => {
  assert.throws(() => readAiSdkUiStream(part({ type: "tool-call", toolCallId: "a" }) + DONE), {
    code: "target_invalid_answer",
    message:
      /^part 1 of the ai-sdk-ui stream has the type "tool-call", which the AI SDK 7 UI message stream does not have/,
  });
});

test("the message takes the start's id, else the one given, and keeps each step's parts", () => {
  const body =
    part({ type: "start-step" }) + part({ type: "text-start", id: "t" }) + part({ type: "text-end", id: "t" }) + DONE;
  assert.deepEqual(readAiSdkUiStream(body, { messageId: "m-7" }).message, {
    id: "m-7",
    role: "assistant",
    parts: [{ type: "step-start" }, { type: "text", text: "", providerMetadata: undefined, state: "done" }],
  });
});
