import assert from "node:assert/strict";
import { test } from "node:test";
import { sendHttpTurn } from "../../../../src/testing/target/http/http-turn.ts";
import { readHttpState } from "../../../../src/testing/target/http/read-http-state.ts";
import { sessionChatEntry, startSessionChatServer } from "../../../support/session-chat-server.ts";

const WHERE = { where: "targets.shop" };

test("the state endpoint gives the step, whether the run has ended and each step's state, turn by turn", async (t) => {
  const server = await startSessionChatServer();
  t.after(() => server.close());
  const entry = sessionChatEntry(server.url);
  const first = await sendHttpTurn(entry, { input: "Ada", session: undefined, messages: [] }, WHERE);
  assert.deepEqual(await readHttpState(entry, first.session!, WHERE), {
    currentStep: "EmailStep",
    completed: false,
    state: { NameStep: { name: "Ada" } },
  });
  await sendHttpTurn(entry, { input: "ada@example.com", session: first.session, messages: [] }, WHERE);
  assert.deepEqual(await readHttpState(entry, first.session!, WHERE), {
    currentStep: "EmailStep",
    completed: true,
    state: { NameStep: { name: "Ada" }, EmailStep: { email: "ada@example.com" } },
  });
});

test("the session is URL-encoded in the state path", async (t) => {
  const server = await startSessionChatServer({ sessionId: (n) => `team/${n} x` });
  t.after(() => server.close());
  const entry = sessionChatEntry(server.url);
  const first = await sendHttpTurn(entry, { input: "Ada", session: undefined, messages: [] }, WHERE);
  assert.equal(first.session, "team/1 x");
  assert.equal((await readHttpState(entry, first.session!, WHERE)).currentStep, "EmailStep");
  assert.equal(server.requests.at(-1)!.url, "/sessions/team%2F1%20x/state");
  assert.equal(server.requests.at(-1)!.headers.authorization, "Bearer fixture-token");
});

test("a planted disagreement shows: the state endpoint reports another step than the answer did", async (t) => {
  const server = await startSessionChatServer({ stateStep: "NameStep" });
  t.after(() => server.close());
  const entry = sessionChatEntry(server.url);
  const answer = await sendHttpTurn(entry, { input: "Ada", session: undefined, messages: [] }, WHERE);
  const stored = await readHttpState(entry, answer.session!, WHERE);
  assert.deepEqual([answer.currentStep, stored.currentStep], ["EmailStep", "NameStep"]);
});

test("without a state pointer the domain state is the whole body, and without step or completed pointers they are absent", async (t) => {
  const server = await startSessionChatServer();
  t.after(() => server.close());
  const entry = sessionChatEntry(server.url);
  const bare = { ...entry, state: { path: entry.state!.path } };
  const answer = await sendHttpTurn(entry, { input: "Ada", session: undefined, messages: [] }, WHERE);
  assert.deepEqual(await readHttpState(bare, answer.session!, WHERE), {
    state: { step: "EmailStep", done: false, state: { NameStep: { name: "Ada" } } },
  });
});

test("a state pointer at something other than an object is target_invalid_answer saying what it found", async (t) => {
  const server = await startSessionChatServer();
  t.after(() => server.close());
  const entry = sessionChatEntry(server.url);
  const wrong = { ...entry, state: { ...entry.state!, state: "/step" } };
  const answer = await sendHttpTurn(entry, { input: "Ada", session: undefined, messages: [] }, WHERE);
  await assert.rejects(readHttpState(wrong, answer.session!, WHERE), {
    code: "target_invalid_answer",
    message: new RegExp(
      `^GET ${server.url}/sessions/session-1/state answered 200, but targets\\.shop\\.state\\.state finds "EmailStep", not an object of each step's state`,
    ),
  });
});

test("a step pointer that finds nothing in the state names state.step and the pointer", async (t) => {
  const server = await startSessionChatServer();
  t.after(() => server.close());
  const entry = sessionChatEntry(server.url);
  const wrong = { ...entry, state: { ...entry.state!, step: "/flow/step" } };
  const answer = await sendHttpTurn(entry, { input: "Ada", session: undefined, messages: [] }, WHERE);
  await assert.rejects(readHttpState(wrong, answer.session!, WHERE), {
    code: "target_invalid_answer",
    message:
      /answered 200, but targets\.shop\.state\.step \(the current step\): the pointer "\/flow\/step" finds nothing in the body \{"step":"EmailStep"/,
  });
});

test("a session the server does not know is a 404, target_invalid_answer saying to fix state.path", async (t) => {
  const server = await startSessionChatServer();
  t.after(() => server.close());
  await assert.rejects(readHttpState(sessionChatEntry(server.url), "nobody", WHERE), {
    code: "target_invalid_answer",
    message: `GET ${server.url}/sessions/nobody/state answered 404 Not Found: "{\\"error\\":\\"no session nobody\\"}". The server refused the request: see its log, and if the request is wrong fix targets.shop.state.path or targets.shop.headers in flowcheck.config.json.`,
  });
});

test("an entry without a state endpoint is config_invalid", async () => {
  const { state: _, ...entry } = sessionChatEntry("http://127.0.0.1:9");
  await assert.rejects(readHttpState(entry, "s-1", WHERE), {
    code: "config_invalid",
    message:
      /^flowcheck\.config\.json: targets\.shop has no state endpoint to read session s-1 from; add targets\.shop\.state\.path/,
  });
});
