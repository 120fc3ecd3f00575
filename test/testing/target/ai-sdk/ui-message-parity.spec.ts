import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import { readAiSdkUiStream } from "../../../../src/testing/target/http/read-ai-sdk-ui-stream.ts";
import type { UIMessage } from "../../../../src/testing/target/http/ui-message.ts";
import { fixtureAi, startAiSdkServer, type AiSdkServer } from "../../../support/ai-sdk-server.ts";

// flowcheck rebuilds the assistant message of an AI SDK UI message stream with its own code; these
// run the SDK's own client fold (readUIMessageStream over the chunks as DefaultChatTransport parses
// them) on the same streams and hold the two to the same JSON.

const RECORDED = readFileSync(new URL("../../../fixtures/http-streams/ai-sdk-ui.sse", import.meta.url), "utf8");

const sse = (chunks: object[]) =>
  `${chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join("")}data: [DONE]\n\n`;

/** Every kind of part the client keeps: reasoning, streamed tool input, a failed call, a preliminary output replaced, data by id, a dynamic tool, sources, files, metadata merged. */
const EVERY_PART = sse([
  { type: "start", messageId: "m-1", messageMetadata: { chat: { id: "c" }, tags: ["a"] } },
  { type: "start-step" },
  { type: "reasoning-start", id: "r" },
  { type: "reasoning-delta", id: "r", delta: "Think" },
  { type: "reasoning-end", id: "r" },
  { type: "data-progress", id: "p", data: { step: "search" } },
  { type: "data-note", data: "kept" },
  { type: "data-ping", data: 1, transient: true },
  { type: "tool-input-start", toolCallId: "c1", toolName: "findRoom", title: "Find" },
  { type: "tool-input-delta", toolCallId: "c1", inputTextDelta: '{"city":' },
  { type: "tool-input-delta", toolCallId: "c1", inputTextDelta: '"Lisbon"}' },
  { type: "tool-input-available", toolCallId: "c1", toolName: "findRoom", input: { city: "Lisbon" } },
  { type: "tool-output-available", toolCallId: "c1", output: { found: 0 }, preliminary: true },
  { type: "tool-output-available", toolCallId: "c1", output: { found: 2 }, providerMetadata: { x: { y: 1 } } },
  { type: "tool-input-available", toolCallId: "c2", toolName: "bookRoom", input: { guest: "" } },
  { type: "tool-output-error", toolCallId: "c2", errorText: "a booking needs the guest's name" },
  { type: "tool-input-available", toolCallId: "c3", toolName: "lookup", input: { q: 1 }, dynamic: true },
  { type: "tool-output-available", toolCallId: "c3", output: "done", dynamic: true },
  { type: "tool-input-error", toolCallId: "c4", toolName: "bookRoom", input: "{bad", errorText: "invalid input" },
  { type: "tool-input-available", toolCallId: "c5", toolName: "charge", input: { cents: 100 } },
  { type: "tool-approval-request", approvalId: "a1", toolCallId: "c5" },
  { type: "tool-input-available", toolCallId: "c6", toolName: "askUser", input: {} },
  { type: "source-url", sourceId: "s", url: "https://example.com/a", title: "A" },
  { type: "file", url: "data:text/plain;base64,aGk=", mediaType: "text/plain" },
  { type: "finish-step" },
  { type: "start-step" },
  { type: "text-start", id: "gone" },
  { type: "text-delta", id: "gone", delta: "dropped" },
  { type: "reset-step" },
  { type: "text-start", id: "t" },
  { type: "text-delta", id: "t", delta: "Two rooms." },
  { type: "data-progress", id: "p", data: { step: "book" } },
  { type: "text-end", id: "t" },
  { type: "message-metadata", messageMetadata: { chat: { turn: 2 }, tags: ["b"] } },
  { type: "finish-step" },
  { type: "finish", finishReason: "stop", messageMetadata: { usage: { out: 3 } } },
]);

/** The message above, answered: the approval granted and the call run, then text, on the same message. */
const CONTINUED = sse([
  { type: "start", messageId: "m-1" },
  { type: "tool-approval-response", approvalId: "a1", approved: true },
  { type: "start-step" },
  { type: "tool-output-available", toolCallId: "c5", output: '{"charged":true}' },
  { type: "tool-output-denied", toolCallId: "c6" },
  { type: "text-start", id: "t2" },
  { type: "text-delta", id: "t2", delta: "Charged." },
  { type: "text-end", id: "t2" },
  { type: "finish", messageMetadata: { usage: { out: 5 } } },
]);

let ai: Record<string, any>;

/** The last snapshot of the SDK's readUIMessageStream over `body`, parsed as DefaultChatTransport parses a response. */
async function sdkMessage(body: string, message?: UIMessage): Promise<unknown> {
  const bytes = new Response(body).body!;
  const chunks = ai["parseJsonEventStream"]({ stream: bytes, schema: ai["uiMessageChunkSchema"] }).pipeThrough(
    new TransformStream({
      transform(chunk: { success: boolean; value: unknown; error: unknown }, controller) {
        if (!chunk.success) throw chunk.error;
        controller.enqueue(chunk.value);
      },
    }),
  );
  const errors: unknown[] = [];
  let last: unknown;
  for await (const snapshot of ai["readUIMessageStream"]({
    message,
    stream: chunks,
    onError: (e: unknown) => errors.push(e),
  }))
    last = snapshot;
  assert.deepEqual(errors, []);
  return JSON.parse(JSON.stringify(last));
}

/** flowcheck's rebuild of the same stream, as sent next turn (JSON: undefined fields dropped). */
function flowcheckMessage(body: string, last?: UIMessage): UIMessage {
  return JSON.parse(JSON.stringify(readAiSdkUiStream(body, { ...(last ? { last } : {}), messageId: "" }).message));
}

before(async () => {
  ai = await fixtureAi();
});

test("a recorded stream rebuilds to the message the SDK's client keeps", async () => {
  assert.deepEqual(flowcheckMessage(RECORDED), await sdkMessage(RECORDED));
});

test("every kind of part, a failed and a denied call, a preliminary output, data by id and merged metadata rebuild as the SDK's client does", async () => {
  const rebuilt = flowcheckMessage(EVERY_PART);
  assert.deepEqual(rebuilt, await sdkMessage(EVERY_PART));
  assert.ok(rebuilt.parts.some((part) => part.type === "tool-bookRoom" && part["state"] === "output-error"));
});

test("a stream that continues the last assistant message (an approval answered) rebuilds as the SDK's client continues it", async () => {
  const first = flowcheckMessage(EVERY_PART);
  assert.deepEqual(flowcheckMessage(CONTINUED, first), await sdkMessage(CONTINUED, structuredClone(first)));
});

test("the continued stream's tool calls are only those it moved on: the approved call returned, the client tool denied", () => {
  const first = flowcheckMessage(EVERY_PART);
  assert.deepEqual(readAiSdkUiStream(CONTINUED, { last: first }).toolCalls, [
    { name: "charge", args: { cents: 100 }, id: "c5", output: { charged: true }, status: "returned" },
    { name: "askUser", args: {}, id: "c6", status: "denied" },
  ]);
});

describe("the fixture booking chat's own streams", () => {
  let server: AiSdkServer | undefined;
  before(async () => {
    server = await startAiSdkServer();
  });
  after(() => server?.close());

  test("each turn's answer, the history sent as flowcheck rebuilt it, rebuilds as the SDK's client does, tool error included", async () => {
    const messages: UIMessage[] = [];
    const said = ["A room in Lisbon for 2 nights", "Book it for nobody", "Book it for Ada"];
    for (const [index, text] of said.entries()) {
      messages.push({ id: `u${index}`, role: "user", parts: [{ type: "text", text }] });
      const response = await fetch(`${server!.baseUrl}/api/chat`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ id: "chat-1", messages, trigger: "submit-message" }),
      });
      const body = await response.text();
      assert.equal(response.status, 200, body);
      const rebuilt = flowcheckMessage(body);
      assert.deepEqual(rebuilt, await sdkMessage(body));
      messages.push({ ...rebuilt, id: `a${index}` });
    }
    assert.match(JSON.stringify(messages.at(-1)), /HOTEL-SOL|SOL-ADA/);
  });
});
