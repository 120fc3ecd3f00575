import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import OpenAI from "openai";
import { readOpenAiChatStream } from "../../../../src/testing/target/http/read-openai-chat-stream.ts";
import { readPointer } from "../../../../src/testing/target/json-pointer.ts";
import { listenOnLoopback } from "../../../support/loopback-server.ts";

// A stream in the shape OpenAI sends with stream_options.include_usage: a role chunk, content
// chunks, a finish chunk, a usage chunk with no choices, then [DONE].
const RECORDED = readFileSync(new URL("../../../fixtures/http-streams/openai-chat.sse", import.meta.url), "utf8");

// The same shape for a turn that calls two tools: each call's first chunk names it, the next ones
// carry its arguments' JSON text by the call's index alone; then the finish chunk and the usage chunk.
const TOOL_CALLS = readFileSync(
  new URL("../../../fixtures/http-streams/openai-chat-tool-calls.sse", import.meta.url),
  "utf8",
);

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

const toolDeltas = (...deltas: object[]) =>
  `data: ${JSON.stringify({ choices: [{ index: 0, delta: { tool_calls: deltas } }] })}\n\n`;

test("a stream's tool calls are the turn's called tools, their arguments parsed from the JSON text the chunks carry, none completed", () => {
  const { text, toolCalls } = readOpenAiChatStream(TOOL_CALLS);
  assert.equal(text, "");
  assert.deepEqual(toolCalls, [
    { name: "get_weather", args: { city: "Lisbon" }, status: "pending", id: "call_Wy3Fj2kPq1" },
    { name: "get_time", args: { zone: "Europe/Lisbon" }, status: "pending", id: "call_Hn8Rt5mXz2" },
  ]);
});

test("the final object holds the folded calls at /choices/0/message/tool_calls, as openai-node's ChatCompletionStream folds them", async (t) => {
  const server = await listenOnLoopback((req, res) => {
    req.resume();
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.end(TOOL_CALLS);
  });
  t.after(() => server.close());
  const client = new OpenAI({ apiKey: "test-key", baseURL: server.url, maxRetries: 0 });
  const stream = client.chat.completions.stream({ model: "gpt-4o-mini", messages: [{ role: "user", content: "Hi" }] });
  const completion = await stream.finalChatCompletion();
  const { final } = readOpenAiChatStream(TOOL_CALLS);
  assert.deepEqual(readPointer(final, "/choices/0/message/tool_calls"), {
    found: true,
    value: completion.choices[0]!.message.tool_calls,
  });
  assert.deepEqual(readPointer(final, "/usage/total_tokens"), { found: true, value: 123 });
});

test("deltas of parallel calls are folded by their index, whatever the order they interleave in; a name is set, never appended", () => {
  const body =
    toolDeltas({ index: 0, id: "a", type: "function", function: { name: "save_name", arguments: "" } }) +
    toolDeltas({ index: 1, id: "b", type: "function", function: { name: "save_email", arguments: '{"email":' } }) +
    toolDeltas({ index: 0, function: { name: "save_name", arguments: '{"name":"Ada"}' } }) +
    toolDeltas({ index: 1, function: { arguments: '"ada@example.com"}' } }) +
    chunk("Saved.") +
    "data: [DONE]\n\n";
  const { text, toolCalls, final } = readOpenAiChatStream(body);
  assert.equal(text, "Saved.");
  assert.deepEqual(
    toolCalls.map(({ name, args }) => ({ name, args })),
    [
      { name: "save_name", args: { name: "Ada" } },
      { name: "save_email", args: { email: "ada@example.com" } },
    ],
  );
  assert.deepEqual(readPointer(final, "/choices/0/message"), {
    found: true,
    value: {
      role: "assistant",
      content: "Saved.",
      tool_calls: [
        { id: "a", type: "function", function: { name: "save_name", arguments: '{"name":"Ada"}' } },
        { id: "b", type: "function", function: { name: "save_email", arguments: '{"email":"ada@example.com"}' } },
      ],
    },
  });
});

test("arguments that are not JSON are kept as text, and empty arguments are no arguments", () => {
  const body =
    toolDeltas({ index: 0, id: "a", function: { name: "note", arguments: "call me later" } }) +
    toolDeltas({ index: 1, id: "b", function: { name: "ping" } }) +
    "data: [DONE]\n\n";
  assert.deepEqual(
    readOpenAiChatStream(body).toolCalls.map(({ name, args }) => ({ name, args })),
    [
      { name: "note", args: "call me later" },
      { name: "ping", args: {} },
    ],
  );
});

test("a stream without tool calls reports none, and its final message has no tool_calls", () => {
  const { toolCalls, final } = readOpenAiChatStream(RECORDED);
  assert.deepEqual(toolCalls, []);
  assert.equal(readPointer(final, "/choices/0/message/tool_calls").found, false);
});

test("a tool call delta without its index, or a call whose function is never named, is target_invalid_answer naming the chunk or call", () => {
  assert.throws(() => readOpenAiChatStream(`${toolDeltas({ id: "a", function: { name: "ping" } })}data: [DONE]\n\n`), {
    code: "target_invalid_answer",
    message:
      'chunk 1 of the openai-chat stream has a tool call delta without its "index" (the position of the call it adds to): {"id":"a","function":{"name":"ping"}}',
  });
  assert.throws(
    () => readOpenAiChatStream(`${toolDeltas({ index: 0, id: "a", function: { arguments: "{}" } })}data: [DONE]\n\n`),
    {
      code: "target_invalid_answer",
      message:
        'tool call 1 of the openai-chat stream ({"id":"a","function":{"name":"","arguments":"{}"}}) never names its function',
    },
  );
});
