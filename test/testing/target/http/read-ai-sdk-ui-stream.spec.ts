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
  const body = part({ type: "text-delta", id: "t", delta: "Hi" }) + DONE;
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
