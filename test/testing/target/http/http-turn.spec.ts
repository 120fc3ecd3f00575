import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { test } from "node:test";
import type { TurnInput } from "../../../../src/testing/scenario/turn-input.ts";
import type { HttpTargetEntry } from "../../../../src/testing/target/http/http-target-entry.ts";
import { sendHttpTurn, type HttpTurnAnswer } from "../../../../src/testing/target/http/http-turn.ts";
import type { ConversationMessage } from "../../../../src/testing/target/http/render-template.ts";
import { closedPort, listenOnLoopback } from "../../../support/loopback-server.ts";
import { sessionChatEntry, startSessionChatServer } from "../../../support/session-chat-server.ts";
import { startStatelessChatServer, statelessChatEntry } from "../../../support/stateless-chat-server.ts";

const WHERE = { where: "targets.shop" };
const INPUTS = ["Ada 2", "Ada", "not an email", "ada@example.com"];
const EXPECTED = [
  { currentStep: "NameStep", completed: false, text: "Please tell me your name." },
  { currentStep: "EmailStep", completed: false, text: "Thanks, Ada. What is your email?" },
  { currentStep: "EmailStep", completed: false, text: "That is not an email address; what is your email?" },
  { currentStep: "EmailStep", completed: true, text: "Thanks, I have ada@example.com. We are done." },
];

/** Plays `inputs` one after another as a caller does: each turn under the session the last answer named, with the history. */
async function converse(entry: HttpTargetEntry, inputs: TurnInput[], session?: string): Promise<HttpTurnAnswer[]> {
  const answers: HttpTurnAnswer[] = [];
  const messages: ConversationMessage[] = [];
  for (const input of inputs) {
    const answer = await sendHttpTurn(entry, { input, session, messages }, WHERE);
    answers.push(answer);
    session = answer.session;
    messages.push({ role: "user", content: String(input) }, { role: "assistant", content: answer.text });
  }
  return answers;
}

const summary = (answers: HttpTurnAnswer[]) =>
  answers.map(({ currentStep, completed, text }) => ({ currentStep, completed, text }));

/** A server that answers every request with `status`, `headers` and `body`. */
function cannedServer(status: number, headers: Record<string, string>, body: string) {
  return listenOnLoopback((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(status, headers);
      res.end(body);
    });
  });
}

for (const stream of [false, true]) {
  const as = stream ? "a stream of OpenAI chunks" : "JSON";
  test(`a stateless server given the whole history each turn refuses a bad name, takes a name, refuses a bad email and ends, answering ${as}`, async (t) => {
    const server = await startStatelessChatServer();
    t.after(() => server.close());
    const session = randomUUID();
    const answers = await converse(statelessChatEntry(server.url, { stream }), INPUTS, session);
    assert.deepEqual(summary(answers), EXPECTED);
    assert.deepEqual(
      answers.map((answer) => answer.session),
      INPUTS.map(() => session),
      "a server that assigns no session keeps the caller's",
    );
    assert.equal(answers[3]!.status, 200);
    assert.deepEqual(
      (server.requests[3]!.messages as ConversationMessage[]).map((message) => message.content),
      [
        "Ada 2",
        "Please tell me your name.",
        "Ada",
        "Thanks, Ada. What is your email?",
        "not an email",
        "That is not an email address; what is your email?",
        "ada@example.com",
      ],
    );
    assert.equal(server.requests[0]!.stream, stream ? true : undefined);
  });
}

test("a streamed answer's body is the final chunk with the text in it, and raw is the stream as sent", async (t) => {
  const server = await startStatelessChatServer();
  t.after(() => server.close());
  const answer = await sendHttpTurn(
    statelessChatEntry(server.url, { stream: true }),
    { input: "Ada", session: "c-1", messages: [] },
    WHERE,
  );
  assert.equal(
    (answer.body as { choices: { message: { content: string } }[] }).choices[0]!.message.content,
    answer.text,
  );
  assert.match(answer.raw, /^data: \{"id":"chatcmpl-1".*data: \[DONE\]\n\n$/s);
  assert.equal(answer.headers["content-type"], "text/event-stream");
});

for (const stream of [false, true]) {
  const as = stream ? "the AI SDK UI message stream" : "JSON";
  test(`a server that keeps sessions assigns one on the first turn and is sent it on every later turn, answering ${as}`, async (t) => {
    const server = await startSessionChatServer();
    t.after(() => server.close());
    const answers = await converse(sessionChatEntry(server.url, { stream }), INPUTS);
    assert.deepEqual(summary(answers), EXPECTED);
    assert.deepEqual(
      answers.map((answer) => answer.session),
      ["session-1", "session-1", "session-1", "session-1"],
    );
    assert.deepEqual(
      server.requests.map((request) => JSON.parse(request.body)),
      [
        { session: null, message: "Ada 2" },
        { session: "session-1", message: "Ada" },
        { session: "session-1", message: "not an email" },
        { session: "session-1", message: "ada@example.com" },
      ],
    );
    const { headers } = server.requests[0]!;
    assert.equal(headers.authorization, "Bearer fixture-token");
    assert.equal(headers.accept, stream ? "text/event-stream" : "application/json");
    assert.equal(headers["content-type"], "application/json");
    assert.deepEqual(server.sessions.get("session-1")?.state, {
      NameStep: { name: "Ada" },
      EmailStep: { email: "ada@example.com" },
    });
  });
}

test("a streamed answer's session can come from a pointer into the stream's metadata as well as from a header", async (t) => {
  const server = await startSessionChatServer({ sessionId: (n) => `thread-${n}` });
  t.after(() => server.close());
  const entry = sessionChatEntry(server.url, { stream: true });
  const { sessionHeader: _, ...answer } = entry.answer;
  const first = await sendHttpTurn(
    { ...entry, answer: { ...answer, session: "/metadata/session" } },
    { input: "Ada", session: undefined, messages: [] },
    WHERE,
  );
  assert.equal(first.session, "thread-1");
  assert.equal(first.text, "Thanks, Ada. What is your email?");
});

test("a turn sent with PUT to a path that holds the session goes there, the session URL-encoded", async (t) => {
  const seen: string[] = [];
  const server = await listenOnLoopback((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    req.resume();
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ response: "ok" }));
  });
  t.after(() => server.close());
  const entry: HttpTargetEntry = {
    kind: "http",
    baseUrl: `${server.url}/api/`,
    turn: { method: "PUT", path: "/conversations/{{session}}/turns", body: { text: "{{input}}" } },
    answer: {},
  };
  const answer = await sendHttpTurn(entry, { input: "hi", session: "a/b c", messages: [] }, WHERE);
  assert.deepEqual(seen, ["PUT /api/conversations/a%2Fb%20c/turns"]);
  assert.equal(answer.text, "ok", "a JSON answer's text is at /response unless answer.text says otherwise");
  assert.equal(answer.session, "a/b c");
  assert.equal("currentStep" in answer, false, "no step pointer, no step");
});

test("a configured header replaces the one flowcheck sends under the same name in any case, not joined to it", async (t) => {
  const seen: (string | undefined)[] = [];
  const server = await listenOnLoopback((req, res) => {
    seen.push(req.headers["content-type"], req.headers.accept);
    req.resume();
    res.writeHead(200, { "content-type": "application/json" }).end('{"response":"ok"}');
  });
  t.after(() => server.close());
  const entry: HttpTargetEntry = {
    kind: "http",
    baseUrl: server.url,
    headers: { "Content-Type": "application/json; charset=utf-8", ACCEPT: "application/vnd.shop+json" },
    turn: { path: "/chat", body: { text: "{{input}}" } },
    answer: {},
  };
  await sendHttpTurn(entry, { input: "hi", session: undefined, messages: [] }, WHERE);
  assert.deepEqual(seen, ["application/json; charset=utf-8", "application/vnd.shop+json"]);
});

test("a closed port is target_unreachable naming the request and the baseUrl to check", async () => {
  const port = await closedPort();
  const entry = sessionChatEntry(`http://127.0.0.1:${port}`);
  await assert.rejects(sendHttpTurn(entry, { input: "Ada", session: undefined, messages: [] }, WHERE), {
    code: "target_unreachable",
    message: `POST http://127.0.0.1:${port}/chat could not be reached (ECONNREFUSED); is the server running? Check targets.shop.baseUrl in flowcheck.config.json.`,
  });
});

test("a server that never answers is target_unreachable once the entry's timeoutMs has passed, naming it", async (t) => {
  const server = await listenOnLoopback((req) => req.resume());
  t.after(() => server.close());
  const entry = { ...sessionChatEntry(server.url), timeoutMs: 150 };
  await assert.rejects(sendHttpTurn(entry, { input: "Ada", session: undefined, messages: [] }, WHERE), {
    code: "target_unreachable",
    message: `POST ${server.url}/chat gave no whole answer within 150 ms; the server may be stuck, or slower than that: raise targets.shop.timeoutMs in flowcheck.config.json if so.`,
  });
});

test("a stream that starts but never ends times out too, and the caller's timeoutMs wins over the entry's", async (t) => {
  const server = await listenOnLoopback((req, res) => {
    req.resume();
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write('data: {"type":"start"}\n\n');
  });
  t.after(() => server.close());
  const entry = { ...sessionChatEntry(server.url, { stream: true }), timeoutMs: 60_000 };
  await assert.rejects(
    sendHttpTurn(entry, { input: "Ada", session: undefined, messages: [] }, { ...WHERE, timeoutMs: 100 }),
    {
      code: "target_unreachable",
      message: /^POST http:\/\/127\.0\.0\.1:\d+\/chat gave no whole answer within 100 ms;/,
    },
  );
});

test("a 500 is target_invalid_answer naming the request and status, quoting the body, and saying what to fix", async (t) => {
  const server = await cannedServer(500, { "content-type": "application/json" }, '{"error":"database down"}');
  t.after(() => server.close());
  await assert.rejects(
    sendHttpTurn(sessionChatEntry(server.url), { input: "Ada", session: undefined, messages: [] }, WHERE),
    {
      code: "target_invalid_answer",
      message:
        `POST ${server.url}/chat answered 500 Internal Server Error: "{\\"error\\":\\"database down\\"}". The server refused the request: ` +
        "see its log, and if the request is wrong fix targets.shop.turn (its path and body) or targets.shop.headers in flowcheck.config.json.",
    },
  );
});

test("an HTML page is target_invalid_answer quoting it, cut to 300 characters", async (t) => {
  const page = `<!doctype html><html><body>${"<p>Welcome</p>".repeat(100)}</body></html>`;
  const server = await cannedServer(200, { "content-type": "text/html; charset=utf-8" }, page);
  t.after(() => server.close());
  await assert.rejects(
    sendHttpTurn(sessionChatEntry(server.url), { input: "Ada", session: undefined, messages: [] }, WHERE),
    (error: Error & { code?: string }) => {
      assert.equal(error.code, "target_invalid_answer");
      assert.equal(
        error.message,
        `POST ${server.url}/chat answered 200 with a body that is not JSON (content-type text/html; charset=utf-8): ` +
          `${JSON.stringify(page).slice(0, 300)}…. Point targets.shop.baseUrl and targets.shop.turn.path at the chat API, ` +
          "or set targets.shop.answer.stream if it answers a stream.",
      );
      return true;
    },
  );
});

test("a step pointer that finds nothing is target_invalid_answer naming the request, status, key and pointer, quoting the body", async (t) => {
  const server = await startSessionChatServer();
  t.after(() => server.close());
  const entry = sessionChatEntry(server.url);
  const wrong = { ...entry, answer: { ...entry.answer, step: "/flow/step" } };
  await assert.rejects(sendHttpTurn(wrong, { input: "Ada", session: undefined, messages: [] }, WHERE), {
    code: "target_invalid_answer",
    message:
      `POST ${server.url}/chat answered 200, but targets.shop.answer.step (the current step): the pointer "/flow/step" ` +
      'finds nothing in the body {"session":"session-1","reply":"Thanks, Ada. What is your email?","step":"EmailStep","done":false}. ' +
      "Fix the pointer in flowcheck.config.json: a JSON Pointer (RFC 6901) to where the body holds it, such as /data/step.",
  });
});

test("a default text pointer that finds nothing names answer.text", async (t) => {
  const server = await startSessionChatServer();
  t.after(() => server.close());
  const entry = sessionChatEntry(server.url);
  const { text: _, ...answer } = entry.answer;
  await assert.rejects(sendHttpTurn({ ...entry, answer }, { input: "Ada", session: undefined, messages: [] }, WHERE), {
    code: "target_invalid_answer",
    message:
      /answered 200, but targets\.shop\.answer\.text \(the answer's text\): the pointer "\/response" finds nothing/,
  });
});

test("a session header the answer lacks is target_invalid_answer naming the header and the headers there are", async (t) => {
  const server = await startSessionChatServer();
  t.after(() => server.close());
  const entry = sessionChatEntry(server.url);
  const { session: _, ...answer } = entry.answer;
  const wrong = { ...entry, answer: { ...answer, sessionHeader: "X-Conversation" } };
  await assert.rejects(sendHttpTurn(wrong, { input: "Ada", session: undefined, messages: [] }, WHERE), {
    code: "target_invalid_answer",
    message:
      /answered 200, but without the header X-Conversation that targets\.shop\.answer\.sessionHeader names \(its headers: .*x-session-id.*\)/,
  });
});

test("a JSON answer where a stream was named is target_invalid_answer saying what to change", async (t) => {
  const server = await startStatelessChatServer();
  t.after(() => server.close());
  const entry = statelessChatEntry(server.url, { stream: true });
  const notStreaming = { ...entry, turn: { ...entry.turn, body: { model: "m", messages: "{{messages}}" } } };
  await assert.rejects(sendHttpTurn(notStreaming, { input: "Ada", session: "c", messages: [] }, WHERE), {
    code: "target_invalid_answer",
    message:
      /answered 200 with content-type application\/json, not the text\/event-stream targets\.shop\.answer\.stream "openai-chat" expects: .*Remove targets\.shop\.answer\.stream if the server answers JSON/,
  });
});

test("a stream cut before its terminator is target_invalid_answer naming the request", async (t) => {
  const server = await cannedServer(
    200,
    { "content-type": "text/event-stream" },
    'data: {"type":"text-delta","id":"t","delta":"Hi"}\n\n',
  );
  t.after(() => server.close());
  await assert.rejects(
    sendHttpTurn(
      sessionChatEntry(server.url, { stream: true }),
      { input: "Ada", session: undefined, messages: [] },
      WHERE,
    ),
    {
      code: "target_invalid_answer",
      message: new RegExp(
        `^POST ${server.url}/chat answered 200, but the ai-sdk-ui stream ends without its terminator`,
      ),
    },
  );
});

test("without a where, messages name the entry's keys alone", async () => {
  const port = await closedPort();
  await assert.rejects(
    sendHttpTurn(sessionChatEntry(`http://127.0.0.1:${port}`), { input: "Ada", session: undefined, messages: [] }),
    {
      message: /Check baseUrl in flowcheck\.config\.json\.$/,
    },
  );
});

test('a chat completion that only calls tools answers no text (its content is null), and "openai" reads its calls', async (t) => {
  const completion = {
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "call_1", type: "function", function: { name: "save_name", arguments: '{"name":"Ada"}' } },
          ],
        },
        finish_reason: "tool_calls",
      },
    ],
  };
  const server = await cannedServer(200, { "content-type": "application/json" }, JSON.stringify(completion));
  t.after(() => server.close());
  const entry: HttpTargetEntry = {
    kind: "http",
    baseUrl: server.url,
    turn: { path: "/v1/chat/completions", body: { messages: "{{messages}}" } },
    answer: { text: "/choices/0/message/content", toolCalls: "openai" },
  };
  const answer = await sendHttpTurn(entry, { input: "Ada", session: "c-1", messages: [] }, WHERE);
  assert.equal(answer.text, "");
  assert.deepEqual(answer.toolCalls, [{ name: "save_name", args: { name: "Ada" }, status: "pending", id: "call_1" }]);
});

test("an entry that reads no tool calls of a JSON answer reports none, and an error answer's are not read", async (t) => {
  const server = await startStatelessChatServer();
  t.after(() => server.close());
  const plain = await sendHttpTurn(statelessChatEntry(server.url), { input: "Ada", session: "c", messages: [] }, WHERE);
  assert.equal(plain.toolCalls, undefined);
  const refused = await sendHttpTurn(
    statelessChatEntry(server.url, { toolCalls: "openai" }),
    { input: "Ada", session: "c", messages: [{ role: "assistant", content: "Hi" }] },
    { ...WHERE, expectedStatus: 400 },
  );
  assert.deepEqual([refused.status, refused.toolCalls], [400, undefined]);
});
