import assert from "node:assert/strict";
import { test } from "node:test";
import OpenAI from "openai";
import { startSeamServer } from "../../../src/testing/seam/seam-server.ts";
import { recordingHandler, text, toolCall } from "../../support/recording-seam-handler.ts";

// openai-node against the seam's Responses route, with the items the AI SDK's Responses provider sends.

const TOOL = {
  type: "function" as const,
  name: "get_weather",
  description: "Weather for a city",
  parameters: {
    type: "object",
    properties: { city: { type: "string" } },
    required: ["city"],
    additionalProperties: false,
  },
  strict: false,
};

async function withSeam(handler: Parameters<typeof startSeamServer>[0], use: (client: OpenAI) => Promise<void>) {
  const seam = await startSeamServer(handler);
  try {
    await use(new OpenAI({ baseURL: seam.baseUrl, apiKey: "placeholder", maxRetries: 0, timeout: 5000 }));
  } finally {
    await seam.close();
  }
}

test("a response answers a function call and a message, each with its own id, and usage", async () => {
  const handler = recordingHandler(
    { reply: toolCall("call_1", "get_weather", { city: "Paris" }) },
    { reply: text("Sunny.") },
  );
  await withSeam(handler, async (client) => {
    const called = await client.responses.create({
      model: "gpt-4o-mini",
      instructions: "You are a desk agent.",
      input: [
        { role: "system", content: "Be brief." },
        { role: "user", content: [{ type: "input_text", text: "Weather in Paris?" }] },
      ],
      tools: [TOOL],
      tool_choice: "auto",
      text: { format: { type: "text" } },
      max_output_tokens: 200,
      store: true,
    });
    assert.equal(called.id, "resp_1");
    assert.equal(called.status, "completed");
    assert.deepEqual(called.output, [
      {
        type: "function_call",
        id: "fc_1",
        call_id: "call_1",
        name: "get_weather",
        arguments: '{"city":"Paris"}',
        status: "completed",
      },
    ]);
    assert.ok(called.usage!.input_tokens > 0 && called.usage!.output_tokens > 0);
    const answered = await client.responses.create({ model: "gpt-4o-mini", input: "Thanks" });
    assert.equal(answered.output_text, "Sunny.");
    assert.equal(answered.output[0]!.id, "msg_1");
  });
  const [call, second] = handler.calls;
  assert.equal(call!.api, "responses");
  assert.equal(call!.request.system, "You are a desk agent.\n\nBe brief.");
  assert.deepEqual(call!.request.messages, [{ role: "user", content: "Weather in Paris?" }]);
  assert.deepEqual(call!.request.tools, [
    { name: "get_weather", description: "Weather for a city", parameters: TOOL.parameters },
  ]);
  assert.deepEqual(second!.request.messages, [{ role: "user", content: "Thanks" }]);
});

test("a streamed response sends created, each item added, its deltas and done, then completed with usage", async () => {
  const reply = {
    content: "Let me check.",
    toolCalls: [{ id: "call_4", name: "get_weather", arguments: '{"city":"Paris"}' }],
  };
  await withSeam(recordingHandler({ reply, usage: { input: 12, output: 5 } }), async (client) => {
    const stream = await client.responses.create({
      model: "gpt-4o-mini",
      input: "Weather in Paris?",
      tools: [TOOL],
      stream: true,
    });
    const events = [];
    for await (const event of stream) events.push(event);
    assert.deepEqual(
      events.map((event) => event.type),
      [
        "response.created",
        "response.in_progress",
        "response.output_item.added",
        "response.content_part.added",
        "response.output_text.delta",
        "response.output_text.done",
        "response.content_part.done",
        "response.output_item.done",
        "response.output_item.added",
        "response.function_call_arguments.delta",
        "response.function_call_arguments.done",
        "response.output_item.done",
        "response.completed",
      ],
    );
    assert.deepEqual(
      events.map((event) => event.sequence_number),
      events.map((_, index) => index),
    );
    const added = events.find(
      (event) => event.type === "response.output_item.added" && event.item.type === "function_call",
    );
    assert.deepEqual(added && "item" in added && added.item, {
      type: "function_call",
      id: "fc_1",
      call_id: "call_4",
      name: "get_weather",
      arguments: "",
      status: "in_progress",
    });
    const completed = events.at(-1)!;
    assert.ok(completed.type === "response.completed");
    assert.deepEqual(completed.response.usage, {
      input_tokens: 12,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 5,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 17,
    });
    assert.deepEqual(
      completed.response.output.map((item) => item.id),
      ["msg_1", "fc_1"],
    );
  });
});

test("an item_reference is read as the message the seam answered under its id, and the call's body carries that item", async () => {
  const handler = recordingHandler({ reply: text("Hotel Sol has a room.") }, { reply: text("Booked.") });
  await withSeam(handler, async (client) => {
    const first = await client.responses.create({ model: "m", input: [{ role: "user", content: "A room in Lisbon" }] });
    const id = first.output[0]!.id!;
    await client.responses.create({
      model: "m",
      input: [
        { role: "user", content: [{ type: "input_text", text: "A room in Lisbon" }] },
        { type: "item_reference", id },
        { type: "function_call", call_id: "call_1", name: "bookRoom", arguments: '{"guest":"Ada"}' },
        { type: "function_call_output", call_id: "call_1", output: '{"reference":"SOL-ADA-1"}' },
        {
          type: "message",
          id: "msg_sent_in_full",
          role: "assistant",
          status: "completed",
          content: [{ type: "output_text", text: "Done.", annotations: [] }],
        },
        { role: "user", content: [{ type: "input_text", text: "Thanks" }] },
      ],
    });
    const second = handler.calls[1]!;
    assert.equal(second.unsupported, undefined);
    assert.deepEqual(second.request.messages, [
      { role: "user", content: "A room in Lisbon" },
      {
        role: "assistant",
        content: "Hotel Sol has a room.",
        toolCalls: [{ id: "call_1", name: "bookRoom", arguments: '{"guest":"Ada"}' }],
      },
      { role: "tool", toolCallId: "call_1", name: "bookRoom", content: '{"reference":"SOL-ADA-1"}' },
      { role: "assistant", content: "Done." },
      { role: "user", content: "Thanks" },
    ]);
    assert.deepEqual((second.body as { input: unknown[] }).input[1], first.output[0]);
  });
});

test("a reference this seam never answered, a hosted tool and previous_response_id are each answered 400 naming their path", async () => {
  const handler = recordingHandler({ reply: text("unused") }, { reply: text("unused") }, { reply: text("unused") });
  await withSeam(handler, async (client) => {
    const sent = [
      client.responses.create({
        model: "m",
        input: [
          { role: "user", content: "Hi" },
          { type: "item_reference", id: "msg_77" },
        ],
      }),
      client.responses.create({ model: "m", input: "Hi", tools: [{ type: "web_search" }] }),
      client.responses.create({ model: "m", input: "Hi", previous_response_id: "resp_0" }),
    ];
    for (const answer of sent)
      await assert.rejects(answer, (error: InstanceType<typeof OpenAI.APIError>) => {
        assert.equal(error.status, 400);
        assert.equal((error.error as { type: string }).type, "invalid_request_error");
        return true;
      });
  });
  assert.deepEqual(
    handler.calls.map((call) => /cannot serve (\S+) =/.exec(call.unsupported ?? "")?.[1]),
    ["input[1].id", "tools[0].type", "previous_response_id"],
  );
  assert.deepEqual(handler.calls[0]!.request.messages, [{ role: "user", content: "Hi" }]);
});

test("a truncated response is incomplete for max_output_tokens, streamed or not", async () => {
  const handler = recordingHandler(
    { reply: text("It is sun"), truncated: true },
    { reply: text("It is sun"), truncated: true },
  );
  await withSeam(handler, async (client) => {
    const response = await client.responses.create({ model: "m", input: "Hi" });
    assert.equal(response.status, "incomplete");
    assert.deepEqual(response.incomplete_details, { reason: "max_output_tokens" });
    const stream = await client.responses.create({ model: "m", input: "Hi", stream: true });
    const events = [];
    for await (const event of stream) events.push(event);
    const last = events.at(-1)!;
    assert.equal(last.type, "response.incomplete");
    assert.ok(last.type === "response.incomplete");
    assert.deepEqual(last.response.incomplete_details, { reason: "max_output_tokens" });
  });
});
