import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, beforeEach, test } from "node:test";
import { isFlowcheckError } from "../../../../src/errors.ts";
import { MastraClient } from "../../../../src/testing/target/mastra/mastra-client.ts";
import { MastraConversation } from "../../../../src/testing/target/mastra/mastra-conversation.ts";
import { listenOnLoopback, type LoopbackServer } from "../../../support/loopback-server.ts";

// A turn recorded from the fixture's real Mastra server, replayed on 127.0.0.1: the failed booking's
// stream and the thread's messages read after it. The replay changes what the real server will not:
// the stream's content type (older adapters send the same frames as text/plain) and what the thread
// holds.

const recorded = (name: string) =>
  readFileSync(new URL(`../../../fixtures/mastra-streams/${name}`, import.meta.url), "utf8");
const STREAM = recorded("failed-booking.sse");
const THREAD = JSON.parse(recorded("thread-messages.json")) as { messages: { role: string; content: unknown }[] };
const INPUT = "Book a table for 12 at Tasca";

let server: LoopbackServer;
let contentType = "text/event-stream";
let thread: unknown = THREAD;

before(async () => {
  server = await listenOnLoopback((request, response) => {
    const stream = request.method === "POST";
    response.writeHead(200, { "content-type": stream ? contentType : "application/json" });
    response.end(stream ? STREAM : JSON.stringify(thread));
  });
});
after(() => server.close());
beforeEach(() => {
  contentType = "text/event-stream";
  thread = THREAD;
});

function send() {
  const client = new MastraClient({ kind: "mastra", baseUrl: server.url }, "desk");
  return new MastraConversation(client, "tripDesk").send({ label: "booking", input: INPUT }, "rec-1");
}

test("the stream's frames are read alike as text/event-stream or text/plain", async () => {
  for (const type of ["text/event-stream", "text/plain; charset=UTF-8"]) {
    contentType = type;
    const turn = await send();
    assert.equal(turn.answer.text, 'Sorry, bookTable failed: "no table for 12 at Tasca".');
    assert.deepEqual(
      turn.checks.map((check) => [check.name, check.outcome]),
      [
        ["status", "passed"],
        ["stored messages", "passed"],
      ],
    );
  }
});

test("an answer in another content type is refused, naming the request and quoting the body", async () => {
  contentType = "application/json";
  await assert.rejects(
    send(),
    (error) =>
      isFlowcheckError(error, "target_invalid_answer") &&
      error.message.startsWith(
        `POST ${server.url}/api/agents/tripDesk/stream answered 200, but with content-type application/json, not a stream of chunks: "data: {`,
      ),
  );
});

test("a thread that lacks the answer's message fails the stored messages check, naming what differs", async () => {
  thread = { messages: THREAD.messages.slice(0, -1) };
  const check = (await send()).checks.find((each) => each.name === "stored messages");
  assert.equal(check?.outcome, "failed");
  assert.match(
    check?.message ?? "",
    /^thread rec-1 disagrees with the answer: the thread holds no assistant message after the turn's user message$/,
  );
});

test("a thread whose stored call failed otherwise than the answer says fails naming the call and the outputs", async () => {
  const messages = structuredClone(THREAD.messages);
  const reply = messages.at(-1)!.content as { parts: { toolInvocation?: { errorText?: string } }[] };
  reply.parts.find((part) => part.toolInvocation)!.toolInvocation!.errorText = "closed today";
  thread = { messages };
  const check = (await send()).checks.find((each) => each.name === "stored messages");
  assert.match(
    check?.message ?? "",
    /^thread rec-1 disagrees with the answer: the call call-18 of bookTable is stored with output \{"error":"closed today"\}, the answer's \{"error":"no table for 12 at Tasca"\}$/,
  );
});
