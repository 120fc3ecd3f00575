import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { readOpenAiChatStream } from "../../../../src/testing/target/http/read-openai-chat-stream.ts";
import { readPointer } from "../../../../src/testing/target/json-pointer.ts";

// A stream in the shape OpenAI sends with stream_options.include_usage: a role chunk, content
// chunks, a finish chunk, a usage chunk with no choices, then [DONE].
const RECORDED = readFileSync(new URL("../../../fixtures/http-streams/openai-chat.sse", import.meta.url), "utf8");

const chunk = (content: string) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content } }] })}\n\n`;

test("a recorded stream's text is its deltas joined", () => {
  assert.equal(readOpenAiChatStream(RECORDED).text, "Hello! How can I help you today?");
});

test("the final object is the last chunk with the joined text at /choices/0/message/content, even when its choices were empty", () => {
  const { final } = readOpenAiChatStream(RECORDED);
  assert.deepEqual(readPointer(final, "/choices/0/message/content"), {
    found: true,
    value: "Hello! How can I help you today?",
  });
  assert.deepEqual(readPointer(final, "/usage/total_tokens"), { found: true, value: 18 });
  assert.equal(final["id"], "chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT");
});

test("fields a server adds to its last chunk stay in the final object beside the message", () => {
  const last = { choices: [{ index: 0, delta: {}, finish_reason: "stop" }], flow: { step: "EmailStep" } };
  const { final } = readOpenAiChatStream(`${chunk("Hi")}data: ${JSON.stringify(last)}\n\ndata: [DONE]\n\n`);
  assert.deepEqual(final, {
    choices: [{ index: 0, delta: {}, finish_reason: "stop", message: { role: "assistant", content: "Hi" } }],
    flow: { step: "EmailStep" },
  });
});

test("a stream cut before data: [DONE] is target_invalid_answer saying the terminator is missing", () => {
  assert.throws(() => readOpenAiChatStream(chunk("Hel") + chunk("lo")), {
    code: "target_invalid_answer",
    message: /^the openai-chat stream ends without its terminator "data: \[DONE\]" after 2 events \(/,
  });
});

test("an error chunk is target_invalid_answer quoting the error", () => {
  const error = `data: ${JSON.stringify({ error: { message: "Rate limit reached", type: "requests" } })}\n\n`;
  assert.throws(() => readOpenAiChatStream(`${chunk("Hi")}${error}data: [DONE]\n\n`), {
    code: "target_invalid_answer",
    message: 'chunk 2 of the openai-chat stream is an error: {"message":"Rate limit reached","type":"requests"}',
  });
});

test("an SSE error event is target_invalid_answer", () => {
  assert.throws(() => readOpenAiChatStream(`${chunk("Hi")}event: error\ndata: overloaded\n\ndata: [DONE]\n\n`), {
    code: "target_invalid_answer",
    message: /^the openai-chat stream has an error event: "overloaded"/,
  });
});

test("a chunk without choices, or data that is not JSON, is target_invalid_answer naming the chunk", () => {
  assert.throws(() => readOpenAiChatStream(`data: {"type":"text-delta","delta":"Hi"}\n\ndata: [DONE]\n\n`), {
    code: "target_invalid_answer",
    message: /^chunk 1 of the openai-chat stream has no "choices" array/,
  });
  assert.throws(() => readOpenAiChatStream("data: Hello\n\ndata: [DONE]\n\n"), {
    code: "target_invalid_answer",
    message: /^event 1 of the openai-chat stream carries "Hello", not a JSON object/,
  });
});

test("a stream of nothing but data: [DONE] is target_invalid_answer", () => {
  assert.throws(() => readOpenAiChatStream("data: [DONE]\n\n"), {
    code: "target_invalid_answer",
    message: 'the openai-chat stream has no chunk before its "data: [DONE]"',
  });
});
