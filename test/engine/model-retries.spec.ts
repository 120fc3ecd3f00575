import assert from "node:assert/strict";
import { test } from "node:test";
import { basicFlowEntry, basicFlowScripts } from "../fixtures/flows/index.ts";
import { type FakeOpenAI } from "../support/fake-openai-server.ts";
import { fakeOpenAIPerFile } from "../support/fake-openai-per-file.ts";
import { jsonClient } from "../support/json-client.ts";
import { startTestServer, type TestServer } from "../support/test-server.ts";

// Provider errors in live mode: the OpenAI SDK retries a 429 or 5xx (OPENAI_MAX_RETRIES); when the
// retries are spent the turn answers 502 model_error and the stored session is left as it was.

let fake: FakeOpenAI;
fakeOpenAIPerFile(Object.values(basicFlowScripts), (started) => (fake = started));

function liveServer(): Promise<TestServer> {
  return startTestServer({
    flows: [basicFlowEntry],
    env: {
      FLOW_MODEL: "live",
      OPENAI_API_KEY: "test-key",
      OPENAI_BASE_URL: fake.baseURL,
      OPENAI_MAX_RETRIES: "1",
      OPENAI_TIMEOUT_MS: "5000",
    },
  });
}

// `retry-after-ms` makes the SDK wait 10 ms instead of its backoff.
const RETRY_SOON = { "retry-after-ms": "10" };
const GREETING = "Hello! What is your full name?";

test("with OPENAI_MAX_RETRIES=1, a 429 then a success is retried and the turn succeeds after 2 requests", async () => {
  const server = await liveServer();
  const client = jsonClient(server.url);
  try {
    fake.answer = (_request, index) =>
      index === 0
        ? {
            status: 429,
            headers: RETRY_SOON,
            body: { error: { message: "Rate limit reached", type: "requests", code: "rate_limit_exceeded" } },
          }
        : { reply: { content: GREETING, toolCalls: [] } };
    const answer = await client.post("/ai/chat", { flow: "BasicFlow", message: "hi" });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body["success"], true);
    assert.equal(answer.body["response"], GREETING);
    assert.equal(fake.requests.length, 2);
    assert.deepEqual(fake.requests[1], fake.requests[0], "the retry sends the same request");
    const stored = await server.app.store.fetchAll(answer.body["session"] as string);
    assert.equal(stored?.turns, 1);
  } finally {
    client.close();
    await server.close();
  }
});

test("when the retries are spent on 503s the turn answers 502 model_error and the stored session is unchanged", async () => {
  const server = await liveServer();
  const client = jsonClient(server.url);
  try {
    // A first turn on the scripts, so there is a stored session to keep intact.
    const first = await client.post("/ai/chat", { flow: "BasicFlow", message: "John Doe" });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const session = first.body["session"] as string;
    const before = await server.app.store.fetchAll(session);
    assert.ok(before, "the first turn is stored");
    fake.requests.length = 0;

    fake.answer = () => ({
      status: 503,
      headers: RETRY_SOON,
      body: { error: { message: "The server is overloaded", type: "server_error" } },
    });
    const answer = await client.post("/ai/chat", { session, message: "John Wick" });
    assert.equal(answer.status, 502);
    const body = answer.body as { success: boolean; session?: string; error: { code: string; message: string } };
    assert.equal(body.success, false);
    assert.equal(body.session, session);
    assert.equal(body.error.code, "model_error");
    assert.match(
      body.error.message,
      /^The model "gpt-4o-mini" failed for BasicFlow\/NameStep \(HTTP 503\): 503 The server is overloaded\. The turn was not applied;/,
    );
    assert.equal(fake.requests.length, 2, "one request and one retry");
    assert.deepEqual(fake.requests[0]!.messages.at(-1), { role: "user", content: "John Wick" });

    assert.deepStrictEqual(await server.app.store.fetchAll(session), before);
  } finally {
    client.close();
    await server.close();
  }
});

test("with OPENAI_MAX_RETRIES=1 a 400 is not retried: one request, and the turn answers 502 model_error", async () => {
  const server = await liveServer();
  const client = jsonClient(server.url);
  try {
    fake.answer = () => ({
      status: 400,
      body: { error: { message: "Invalid schema for function 'save_name'", type: "invalid_request_error" } },
    });
    const answer = await client.post("/ai/chat", { flow: "BasicFlow", message: "hi" });
    assert.equal(answer.status, 502);
    assert.equal((answer.body["error"] as { code: string }).code, "model_error");
    assert.match(
      (answer.body["error"] as { message: string }).message,
      /\(HTTP 400\): 400 Invalid schema for function 'save_name'/,
    );
    assert.equal(fake.requests.length, 1);
  } finally {
    client.close();
    await server.close();
  }
});
