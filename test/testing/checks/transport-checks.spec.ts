import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "node:test";
import { flowcheckApi, runScenario, type ScenarioTarget } from "../../../src/testing/index.ts";
import {
  checkNamed,
  collect,
  failures,
  fakeScenario,
  jsonReply,
  playAgainstFake,
  sse,
  type FakeReply,
} from "../../support/fake-chat-server.ts";

const threeTurns = fakeScenario([
  { label: "first", input: "hello", expectedActiveStep: "AskStep" },
  { label: "second", input: "second", expectedActiveStep: "NextStep" },
  { label: "third", input: "third", expectedActiveStep: "NextStep" },
]);

/** The reply with its session id replaced in the header, the body, or both. */
function withSession(reply: FakeReply, ids: { header?: string | undefined; body?: string }): FakeReply {
  const body = JSON.parse(reply.body) as Record<string, unknown>;
  if (ids.body !== undefined) body["session"] = ids.body;
  const headers = { ...reply.headers };
  if ("header" in ids) headers["CHAT_SESSION_ID"] = ids.header;
  return { ...reply, headers, body: JSON.stringify(body) };
}

test("a well-behaved server passes every transport check, the session id staying the same", async () => {
  const { turns } = await playAgainstFake(threeTurns);
  assert.deepEqual(
    turns.map((turn) => turn.outcome),
    ["passed", "passed", "passed"],
  );
  assert.deepEqual(
    turns[1]!.checks.filter((c) => c.contract === "transport"),
    ["status", "body", "success", "session header", "session body", "session ids agree", "session stable"].map(
      (name) => ({
        contract: "transport",
        name,
        outcome: "passed",
        ...(name === "status"
          ? { expected: 200, actual: 200 }
          : name === "success"
            ? { expected: true, actual: true }
            : {}),
      }),
    ),
  );
});

test("a server that changes the session id on turn 2 fails the session stable check naming both ids", async () => {
  const { turns, fake } = await playAgainstFake(threeTurns, {
    reply: (reply, request) =>
      request.number === 2 ? withSession(reply, { header: "session-2", body: "session-2" }) : reply,
  });
  const second = turns[1]!;
  assert.equal(second.outcome, "failed");
  assert.deepEqual(failures(second), ["session stable: the session id changed from session-1 to session-2"]);
  assert.equal(
    second.failure,
    `turn 2 'second': the session id changed from session-1 to session-2; response: "You said: second"`,
  );
  assert.equal(checkNamed(second, "session ids agree").outcome, "passed");
  assert.equal(turns[2]!.outcome, "skipped");
  assert.equal(fake.requests.length, 2);
});

test("a server that drops the CHAT_SESSION_ID header fails the session header check", async () => {
  const { turns } = await playAgainstFake(threeTurns, { reply: (reply) => withSession(reply, { header: undefined }) });
  const first = turns[0]!;
  assert.equal(first.outcome, "failed");
  assert.deepEqual(failures(first), ["session header: the CHAT_SESSION_ID header is missing"]);
  assert.equal(first.response?.headers["chat_session_id"], undefined);
  assert.equal(checkNamed(first, "session body").outcome, "passed");
});

test("a server whose body carries another session id than its header fails the session ids agree check", async () => {
  const { turns } = await playAgainstFake(threeTurns, {
    reply: (reply) => withSession(reply, { body: "session-from-body" }),
  });
  assert.deepEqual(failures(turns[0]!), [
    "session ids agree: the body's session id session-from-body differs from the header's session-1",
  ]);
});

test("a server that answers another status fails the status check, naming the expected status, the one got and the error", async () => {
  const { turns } = await playAgainstFake(threeTurns, {
    reply: () => jsonReply(500, { success: false, error: { code: "internal_error", message: "boom" } }),
  });
  const first = turns[0]!;
  assert.equal(checkNamed(first, "status").message, "expected status 200, got 500 (internal_error: boom)");
  assert.deepEqual(failures(first), [
    "status: expected status 200, got 500 (internal_error: boom)",
    'success: expected "success": true, got false',
    "session header: the CHAT_SESSION_ID header is missing",
    'session body: the body has no "session" id',
    // With no session id in the answer, the runner has nothing to look up.
    "stored: the answer carries no session id, so the store could not be read",
  ]);
});

test("a turn expecting an error status fails when the server answers 200, and the success and error checks say why", async () => {
  const loaded = fakeScenario([
    { label: "first", input: "hello", expectedActiveStep: "AskStep" },
    { label: "refused", input: "again", expectedStatus: 409 },
  ]);
  const { turns } = await playAgainstFake(loaded);
  assert.deepEqual(failures(turns[1]!), [
    "status: expected status 409, got 200",
    'success: expected "success": false, got true',
    'error: expected "error": {"code", "message"}, got undefined',
    // The server did apply the turn, which the persisted contract catches too.
    "unchanged: the error answer changed the stored session: turns, flow, steps, memory, execution differ from before the turn",
  ]);
});

test("a 200 answer with success false fails the success check alone", async () => {
  const { turns } = await playAgainstFake(threeTurns, {
    reply: (reply) => ({ ...reply, body: JSON.stringify({ ...(JSON.parse(reply.body) as object), success: false }) }),
  });
  assert.deepEqual(failures(turns[0]!), ['success: expected "success": true, got false']);
  assert.equal(checkNamed(turns[0]!, "status").outcome, "passed");
});

test("an answer of another media type than expectContentType fails that check naming both types", async () => {
  const loaded = fakeScenario([
    { label: "stream wanted", input: "hello", expectedActiveStep: "AskStep", expectContentType: "text/event-stream" },
  ]);
  const { turns } = await playAgainstFake(loaded);
  assert.deepEqual(failures(turns[0]!), [
    "expectContentType: expected Content-Type text/event-stream, got application/json",
  ]);
});

test("a well-formed event stream passes the body and content type checks and its response is what expectations read", async () => {
  const loaded = fakeScenario([
    {
      label: "streamed",
      input: "hello there",
      expectedActiveStep: "AskStep",
      accept: "text/event-stream",
      expectContentType: "text/event-stream",
      responseMustInclude: ["hello there"],
    },
  ]);
  const { turns, fake } = await playAgainstFake(loaded);
  assert.equal(turns[0]!.outcome, "passed", turns[0]!.failure);
  assert.equal(fake.requests[0]!.accept, "text/event-stream");
  assert.deepEqual(
    (turns[0]!.response?.body as { event: string }[]).map((event) => event.event),
    ["token", "token", "token", "token", "done"],
  );
});

const streamed = fakeScenario([
  {
    label: "streamed",
    input: "hello",
    expectedActiveStep: "AskStep",
    accept: "text/event-stream",
    expectContentType: "text/event-stream",
  },
]);

test("an event stream without a done event fails the body check although its Content-Type is right", async () => {
  const { turns } = await playAgainstFake(streamed, {
    reply: (reply) => ({ ...reply, body: sse("token", { text: "You said: " }) + sse("token", { text: "hello" }) }),
  });
  const first = turns[0]!;
  assert.equal(first.outcome, "failed");
  assert.equal(checkNamed(first, "expectContentType").outcome, "passed");
  assert.equal(
    checkNamed(first, "body").message,
    'the event stream does not end with a "done" event (events: token, token)',
  );
});

test("an event stream whose tokens do not spell the done event's response fails the body check", async () => {
  const { turns } = await playAgainstFake(streamed, {
    reply: (reply) => {
      const done = reply.body.split("\n\n").filter(Boolean).at(-1)!;
      return {
        ...reply,
        body: `${sse("token", { text: "You said: " })}${sse("token", { text: "goodbye" })}${done}\n\n`,
      };
    },
  });
  const first = turns[0]!;
  assert.equal(checkNamed(first, "expectContentType").outcome, "passed");
  assert.deepEqual(failures(first), [
    'body: the token events spell "You said: goodbye" but the "done" event\'s response is "You said: hello"',
  ]);
});

test("an event stream with an event that is not a token fails the body check naming the event", async () => {
  const { turns } = await playAgainstFake(streamed, {
    reply: (reply) => ({ ...reply, body: `event: ping\ndata: {}\n\n${reply.body}` }),
  });
  assert.equal(
    checkNamed(turns[0]!, "body").message,
    'event 1 is "ping" with data {}; expected a "token" event with {"text": "…"}',
  );
});

test("a server that is not listening gives a failed request check, not an exception, and the rest is skipped", async () => {
  // A port that was free a moment ago and is closed now.
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const target: ScenarioTarget = {
    description: { baseUrl, pins: {} },
    ...flowcheckApi(baseUrl),
    sessions: { reader: { description: "an empty Map", fetchAll: async () => undefined } },
    close: async () => {},
  };
  const { turns, final, outcome } = await collect(runScenario(threeTurns, target));
  const expected = `POST http://127.0.0.1:${port}/ai/chat failed: connect ECONNREFUSED 127.0.0.1:${port}. Is the server running?`;
  assert.deepEqual(turns[0]!.checks, [
    { contract: "transport", name: "request", outcome: "failed", message: expected },
  ]);
  assert.equal(turns[0]!.failure, `turn 1 'first': ${expected}`);
  assert.deepEqual(
    turns.map((turn) => [turn.outcome, turn.skipReason]),
    [
      ["failed", undefined],
      ["skipped", "turn 1 failed"],
      ["skipped", "turn 1 failed"],
    ],
  );
  assert.deepEqual(final, { outcome: "skipped", skipReason: "turn 1 failed", checks: [] });
  assert.equal(outcome, "failed");
});
