import assert from "node:assert/strict";
import { test } from "node:test";
import { answerToolCalls } from "../../../../src/testing/target/http/answer-tool-calls.ts";

const BUT = "POST http://127.0.0.1:1/chat answered 200, but";
const AT = "targets.shop.";
const POINTERS = { path: "/tool_calls", name: "/name", args: "/arguments", output: "/output" };

const completion = (message: object) => ({ choices: [{ index: 0, message, finish_reason: "tool_calls" }] });

test("\"openai\" reads a chat completion's message.tool_calls: a function's arguments parsed from JSON, a custom tool's input as text, none completed", () => {
  const body = completion({
    role: "assistant",
    content: null,
    tool_calls: [
      { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Lisbon"}' } },
      { id: "call_2", type: "custom", custom: { name: "run_sql", input: "select 1" } },
    ],
  });
  assert.deepEqual(answerToolCalls(body, "openai", BUT, AT), [
    { name: "get_weather", args: { city: "Lisbon" }, status: "pending", id: "call_1" },
    { name: "run_sql", args: "select 1", status: "pending", id: "call_2" },
  ]);
});

test('"openai" reads a message without tool_calls, as OpenAI leaves the key out, as a turn that called none', () => {
  assert.deepEqual(answerToolCalls(completion({ role: "assistant", content: "Hi" }), "openai", BUT, AT), []);
  assert.deepEqual(
    answerToolCalls(completion({ role: "assistant", content: "Hi", tool_calls: null }), "openai", BUT, AT),
    [],
  );
});

test('"openai" on a body that is no chat completion is target_invalid_answer saying what it lacks and to give pointers instead', () => {
  assert.throws(() => answerToolCalls({ reply: "Hi" }, "openai", BUT, AT), {
    code: "target_invalid_answer",
    message:
      `${BUT} targets.shop.answer.toolCalls is "openai", and there is no chat completion message at /choices/0/message, ` +
      'in the body {"reply":"Hi"}. Give targets.shop.answer.toolCalls pointers to where the answer lists its calls ' +
      '({ "path": "/tool_calls", "name": "/name", "args": "/arguments", "output": "/output" }), or remove it.',
  });
  assert.throws(() => answerToolCalls(completion({ tool_calls: { name: "x" } }), "openai", BUT, AT), {
    message: /and \/choices\/0\/message\/tool_calls is \{"name":"x"\}, not an array, in the body/,
  });
  assert.throws(() => answerToolCalls(completion({ tool_calls: [{ id: "c", type: "function" }] }), "openai", BUT, AT), {
    message: /and \/choices\/0\/message\/tool_calls\/0 names no function, in the body/,
  });
});

test("pointers read each call of the array: its name, its arguments and its output, JSON text parsed and JSON values kept", () => {
  const body = {
    reply: "Saved.",
    tool_calls: [
      { name: "check_name", arguments: '{"name":"Ada"}', output: '{"valid":true}' },
      { name: "save_name", arguments: { name: "Ada" }, output: { saved: true } },
      { name: "log", arguments: "{}", output: "logged" },
    ],
  };
  assert.deepEqual(answerToolCalls(body, POINTERS, BUT, AT), [
    { name: "check_name", args: { name: "Ada" }, output: { valid: true }, status: "returned" },
    { name: "save_name", args: { name: "Ada" }, output: { saved: true }, status: "returned" },
    { name: "log", args: {}, output: "logged", status: "returned" },
  ]);
});

test("a call whose output pointer finds nothing has not completed, and without an output pointer none has", () => {
  const body = { tool_calls: [{ name: "book", arguments: '{"day":"Friday"}' }] };
  const pending = [{ name: "book", args: { day: "Friday" }, status: "pending" }];
  assert.deepEqual(answerToolCalls(body, POINTERS, BUT, AT), pending);
  assert.deepEqual(answerToolCalls(body, { path: "/tool_calls", name: "/name", args: "/arguments" }, BUT, AT), pending);
  assert.deepEqual(answerToolCalls({ tool_calls: [] }, POINTERS, BUT, AT), []);
});

test("a path pointer that finds no array is target_invalid_answer naming the key, the pointer, what it found and the fix", () => {
  assert.throws(() => answerToolCalls({ tool_calls: { name: "book" } }, POINTERS, BUT, AT), {
    code: "target_invalid_answer",
    message:
      `${BUT} targets.shop.answer.toolCalls.path (the array of the turn's tool calls, [] when it called none): ` +
      'the pointer "/tool_calls" finds {"name":"book"}, not an array, in the body {"tool_calls":{"name":"book"}}. ' +
      "Fix the pointer in flowcheck.config.json: a JSON Pointer (RFC 6901) to where the body holds it, such as /data/step.",
  });
  assert.throws(() => answerToolCalls({ calls: [] }, POINTERS, BUT, AT), {
    code: "target_invalid_answer",
    message:
      /toolCalls\.path \(the array of the turn's tool calls, \[\] when it called none\): the pointer "\/tool_calls" finds nothing in the body \{"calls":\[\]\}/,
  });
});

test("a call without the name or arguments the pointers name is target_invalid_answer naming the call's place in the array", () => {
  assert.throws(() => answerToolCalls({ tool_calls: [{ tool: "book", arguments: "{}" }] }, POINTERS, BUT, AT), {
    code: "target_invalid_answer",
    message: new RegExp(
      `^${BUT} targets\\.shop\\.answer\\.toolCalls\\.name \\(the name of the call at /tool_calls/0\\): the pointer "/name" finds nothing in the body \\{"tool":"book","arguments":"\\{\\}"\\}`,
    ),
  });
  assert.throws(() => answerToolCalls({ tool_calls: [{ name: "book" }] }, POINTERS, BUT, AT), {
    message:
      /answer\.toolCalls\.args \(the arguments of the call at \/tool_calls\/0\): the pointer "\/arguments" finds nothing/,
  });
});
