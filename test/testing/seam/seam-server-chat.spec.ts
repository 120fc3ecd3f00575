import assert from "node:assert/strict";
import { test } from "node:test";
import OpenAI from "openai";
import { startSeamServer } from "../../../src/testing/seam/seam-server.ts";
import { recordingHandler, text, toolCall } from "../../support/recording-seam-handler.ts";

// openai-node, the client LangChain's ChatOpenAI drives, against the seam's Chat Completions route.

const TOOLS = [
  {
    type: "function" as const,
    function: {
      name: "get_weather",
      description: "Weather for a city",
      parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    },
  },
];

async function withSeam(handler: Parameters<typeof startSeamServer>[0], use: (client: OpenAI) => Promise<void>) {
  const seam = await startSeamServer(handler);
  try {
    await use(new OpenAI({ baseURL: seam.baseUrl, apiKey: "placeholder", maxRetries: 0, timeout: 5000 }));
  } finally {
    await seam.close();
  }
}

test("a chat completion answers a tool call the SDK reads, and the handler reads system, messages and tools", async () => {
  const handler = recordingHandler({ reply: toolCall("call_1", "get_weather", { city: "Paris" }) });
  await withSeam(handler, async (client) => {
    const completion = await client.chat.completions.create({
      model: "gpt-4o-mini",
      messages: [
        { role: "system", content: "You are a desk agent." },
        { role: "developer", content: "Be brief." },
        { role: "user", content: [{ type: "text", text: "Weather in Paris?" }] },
      ],
      tools: TOOLS,
      tool_choice: "auto",
      temperature: 0,
    });
    assert.equal(completion.id, "chatcmpl-1");
    assert.equal(completion.choices[0]!.finish_reason, "tool_calls");
    assert.equal(completion.choices[0]!.message.content, null);
    assert.deepEqual(completion.choices[0]!.message.tool_calls, [
      { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
    ]);
    assert.ok(completion.usage!.prompt_tokens > 0 && completion.usage!.completion_tokens > 0);
  });
  const [call] = handler.calls;
  assert.equal(call!.api, "chat");
  assert.equal(call!.stream, false);
  assert.equal(call!.unsupported, undefined);
  assert.equal(call!.request.system, "You are a desk agent.\n\nBe brief.");
  assert.deepEqual(call!.request.messages, [{ role: "user", content: "Weather in Paris?" }]);
  assert.deepEqual(call!.request.tools, [
    { name: "get_weather", description: "Weather for a city", parameters: TOOLS[0]!.function.parameters },
  ]);
});

test("a streamed chat completion sends the text, then each tool call named on its first delta, the finish and the usage chunk", async () => {
  const reply = {
    content: "Let me check.",
    toolCalls: [{ id: "call_2", name: "get_weather", arguments: '{"city":"Lyon"}' }],
  };
  const handler = recordingHandler({ reply, usage: { input: 12, output: 5 } });
  await withSeam(handler, async (client) => {
    const stream = await client.chat.completions.create({
      model: "gpt-4o-mini",
      messages: [
        { role: "user", content: "Weather in Paris?" },
        {
          role: "assistant",
          content: "",
          tool_calls: [
            { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
          ],
        },
        { role: "tool", tool_call_id: "call_1", content: '{"forecast":"sunny"}' },
        { role: "user", content: "And Lyon?" },
      ],
      tools: TOOLS,
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    assert.deepEqual(chunks[0]!.choices[0]!.delta, { role: "assistant", content: "" });
    assert.equal(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? "").join(""), "Let me check.");
    const toolDeltas = chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []);
    assert.deepEqual(toolDeltas[0], {
      index: 0,
      id: "call_2",
      type: "function",
      function: { name: "get_weather", arguments: "" },
    });
    assert.equal(toolDeltas.map((delta) => delta.function?.arguments ?? "").join(""), '{"city":"Lyon"}');
    assert.equal(chunks.at(-2)!.choices[0]!.finish_reason, "tool_calls");
    assert.deepEqual(chunks.at(-1)!.choices, []);
    assert.deepEqual(chunks.at(-1)!.usage, { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 });
  });
  const [call] = handler.calls;
  assert.equal(call!.stream, true);
  assert.equal(call!.includeUsage, true);
  assert.deepEqual(call!.request.messages, [
    { role: "user", content: "Weather in Paris?" },
    {
      role: "assistant",
      content: "",
      toolCalls: [{ id: "call_1", name: "get_weather", arguments: '{"city":"Paris"}' }],
    },
    { role: "tool", toolCallId: "call_1", name: "get_weather", content: '{"forecast":"sunny"}' },
    { role: "user", content: "And Lyon?" },
  ]);
  assert.deepEqual(call!.request.latest, { role: "user", content: "And Lyon?" });
});

test("a streamed text answer without include_usage ends at its finish chunk and [DONE]", async () => {
  await withSeam(recordingHandler({ reply: text("Sunny.") }), async (client) => {
    const stream = await client.chat.completions.create({
      model: "m",
      messages: [{ role: "user", content: "Hi" }],
      stream: true,
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    assert.equal(chunks.length, 3);
    assert.equal(chunks[1]!.choices[0]!.delta.content, "Sunny.");
    assert.equal(chunks[2]!.choices[0]!.finish_reason, "stop");
    assert.equal(
      chunks.some((chunk) => chunk.usage),
      false,
    );
  });
});

test("a truncated answer finishes with length", async () => {
  const handler = recordingHandler(
    { reply: text("It is sun"), truncated: true },
    { reply: text("It is sun"), truncated: true },
  );
  await withSeam(handler, async (client) => {
    const completion = await client.chat.completions.create({
      model: "m",
      messages: [{ role: "user", content: "Hi" }],
    });
    assert.equal(completion.choices[0]!.finish_reason, "length");
    const stream = await client.chat.completions.create({
      model: "m",
      messages: [{ role: "user", content: "Hi" }],
      stream: true,
    });
    const reasons = [];
    for await (const chunk of stream) reasons.push(chunk.choices[0]?.finish_reason);
    assert.equal(reasons.at(-1), "length");
  });
});

test("an image part is answered 400 invalid_request_error naming its path, after the handler saw the call with its unsupported path", async () => {
  const handler = recordingHandler({ reply: text("unused") });
  await withSeam(handler, async (client) => {
    const sent = client.chat.completions.create({
      model: "m",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "What is this?" },
            { type: "image_url", image_url: { url: "data:," } },
          ],
        },
      ],
    });
    await assert.rejects(sent, (error: InstanceType<typeof OpenAI.APIError>) => {
      assert.equal(error.status, 400);
      assert.equal((error.error as { type: string }).type, "invalid_request_error");
      assert.match(error.message, /messages\[0\]\.content\[1\]\.type = "image_url"/);
      return true;
    });
  });
  assert.match(handler.calls[0]!.unsupported!, /messages\[0\]\.content\[1\]\.type/);
  assert.deepEqual(handler.calls[0]!.request.messages, [{ role: "user", content: "What is this?" }]);
});

test("n above 1 and a tool message answering no call are each unsupported by path", async () => {
  const handler = recordingHandler({ reply: text("unused") }, { reply: text("unused") });
  await withSeam(handler, async (client) => {
    await assert.rejects(
      client.chat.completions.create({ model: "m", n: 2, messages: [{ role: "user", content: "Hi" }] }),
      { status: 400 },
    );
    const orphan = client.chat.completions.create({
      model: "m",
      messages: [{ role: "tool", tool_call_id: "call_9", content: "x" }],
    });
    await assert.rejects(orphan, { status: 400 });
  });
  assert.match(handler.calls[0]!.unsupported!, /cannot serve n = 2/);
  assert.match(handler.calls[1]!.unsupported!, /messages\[0\]\.tool_call_id = "call_9"/);
});

test("a refused outcome is a 400 in the provider's shape with its message and code", async () => {
  await withSeam(recordingHandler({ refused: "no script answers this", code: "script_unmatched" }), async (client) => {
    await assert.rejects(
      client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "Hi" }] }),
      (error: InstanceType<typeof OpenAI.APIError>) => {
        assert.equal(error.status, 400);
        assert.deepEqual(error.error, {
          message: "no script answers this",
          type: "invalid_request_error",
          param: null,
          code: "script_unmatched",
        });
        return true;
      },
    );
  });
});
