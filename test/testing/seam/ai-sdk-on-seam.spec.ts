import assert from "node:assert/strict";
import { test } from "node:test";
import type { ModelReply } from "../../../src/engine/chat-model.ts";
import type { SeamCall, SeamHandler } from "../../../src/testing/seam/seam-call.ts";
import type { SeamMessage } from "../../../src/testing/seam/seam-request.ts";
import { startSeamServer } from "../../../src/testing/seam/seam-server.ts";
import { AiSdkConversation } from "../../../src/testing/target/ai-sdk/ai-sdk-conversation.ts";
import { startAiSdkServer } from "../../support/ai-sdk-server.ts";

// The fixture's booking chat on the real @ai-sdk/openai provider, its base URL the seam's: two turns
// played as useChat plays them, each model call answered by a handler that books as the fixture's
// mock does. The server runs with the loopback guard, so a call anywhere else would fail and be logged.

const FOUND = "Hotel Sol has a room in Lisbon for 2 nights at 240 EUR. Who is the guest?";
const BOOKED = "Booked Hotel Sol for Ada: your reference is SOL-ADA-1.";

/** The booking chat's model over the seam: a tool call for what the user asked, then a sentence about its result. */
function bookingReply({ latest, messages }: SeamCall["request"]): ModelReply {
  const results = messages.filter((message) => message.role === "tool");
  const id = `call_${results.length + 1}`;
  if (latest?.role === "tool") {
    const output = JSON.parse(latest.content) as Record<string, unknown>;
    const content =
      latest.name === "findRoom"
        ? FOUND
        : `Booked ${output["hotel"]} for ${output["guest"]}: your reference is ${output["reference"]}.`;
    return { content, toolCalls: [] };
  }
  if (/room in Lisbon/i.test(latest?.content ?? ""))
    return { content: "", toolCalls: [{ id, name: "findRoom", arguments: '{"city":"Lisbon","nights":2}' }] };
  return { content: "", toolCalls: [{ id, name: "bookRoom", arguments: '{"hotel":"Hotel Sol","guest":"Ada"}' }] };
}

async function playTwoTurns(model: "responses" | "chat"): Promise<{ calls: SeamCall[]; said: string[] }> {
  const calls: SeamCall[] = [];
  const handler: SeamHandler = {
    answer: async (call) => {
      calls.push(call);
      return { reply: bookingReply(call.request) };
    },
  };
  const seam = await startSeamServer(handler);
  const app = await startAiSdkServer({
    loopbackOnly: true,
    env: { BOOKING_MODEL: model, OPENAI_BASE_URL: seam.baseUrl, OPENAI_API_KEY: "placeholder" },
  });
  try {
    const conversation = new AiSdkConversation({ kind: "ai-sdk", baseUrl: app.baseUrl }, "booking");
    const said: string[] = [];
    let session: string | undefined;
    for (const input of ["A room in Lisbon for 2 nights", "Book it for Ada"]) {
      const sent = await conversation.send({ label: input, input }, session);
      session = sent.session;
      assert.equal(sent.exchange.response.status, 200, app.output());
      said.push(sent.answer.text ?? "");
    }
    assert.doesNotMatch(app.output(), /outbound connection refused/);
    return { calls, said };
  } finally {
    await app.close();
    await seam.close();
  }
}

/** What the second turn's first call must hold: the first turn whole, its tool call and output in order, then the new message. */
const SECOND_TURN: SeamMessage[] = [
  { role: "user", content: "A room in Lisbon for 2 nights" },
  {
    role: "assistant",
    content: "",
    toolCalls: [{ id: "call_1", name: "findRoom", arguments: '{"city":"Lisbon","nights":2}' }],
  },
  {
    role: "tool",
    toolCallId: "call_1",
    name: "findRoom",
    content: '{"hotel":"Hotel Sol","city":"Lisbon","nights":2,"price":240}',
  },
  { role: "assistant", content: FOUND },
  { role: "user", content: "Book it for Ada" },
];

test("the AI SDK's Responses provider books through the seam, its earlier answer sent back as an item_reference the seam resolves", async () => {
  const { calls, said } = await playTwoTurns("responses");
  assert.deepEqual(said, [FOUND, BOOKED]);
  assert.deepEqual(
    calls.map((call) => [call.api, call.model, call.stream, call.unsupported]),
    Array(4).fill(["responses", "gpt-4o-mini", true, undefined]),
  );
  assert.equal(calls[0]!.request.system, "You book hotel rooms.");
  assert.deepEqual(
    calls[0]!.request.tools.map((tool) => tool.name),
    ["findRoom", "bookRoom"],
  );
  assert.deepEqual(calls[2]!.request.messages, SECOND_TURN);
  // The SDK sends its own full assistant text as { role, content } without an id: this item, the
  // seam's own with its id and status, is what the reference it sent resolved to.
  const input = (calls[2]!.body as { input: Record<string, unknown>[] }).input;
  const answered = input.find((item) => item["role"] === "assistant");
  assert.deepEqual(answered, {
    type: "message",
    id: "msg_1",
    role: "assistant",
    status: "completed",
    content: [{ type: "output_text", text: FOUND, annotations: [] }],
  });
});

test("the AI SDK's Chat Completions provider books through the seam with its tool calls and outputs in order", async () => {
  const { calls, said } = await playTwoTurns("chat");
  assert.deepEqual(said, [FOUND, BOOKED]);
  assert.deepEqual(
    calls.map((call) => [call.api, call.model, call.stream, call.includeUsage, call.unsupported]),
    Array(4).fill(["chat", "gpt-4o-mini", true, true, undefined]),
  );
  assert.deepEqual(calls[2]!.request.messages, SECOND_TURN);
  assert.deepEqual(calls[3]!.request.messages.slice(5), [
    {
      role: "assistant",
      content: "",
      toolCalls: [{ id: "call_2", name: "bookRoom", arguments: '{"hotel":"Hotel Sol","guest":"Ada"}' }],
    },
    {
      role: "tool",
      toolCallId: "call_2",
      name: "bookRoom",
      content: '{"reference":"SOL-ADA-1","hotel":"Hotel Sol","guest":"Ada"}',
    },
  ]);
});
