import assert from "node:assert/strict";
import net from "node:net";
import { test } from "node:test";
import { startFakeOpenAI } from "../support/fake-openai-server.ts";
import { jsonClient } from "../support/json-client.ts";
import { ledgerFlows, ledgerScript } from "../support/ledger-flow.ts";
import { startTestServer } from "../support/test-server.ts";

// A model that cannot be reached answers 502 model_error naming the base URL it tried (never the
// key), in one sentence per sentence, and leaves the session as it was.

const KEY = "sk-flowcheck-spec-key-0123456789";

/** A loopback port nothing listens on: one just freed. */
async function refusingPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

function liveEnv(baseURL: string): Record<string, string> {
  return {
    FLOW_MODEL: "live",
    OPENAI_API_KEY: KEY,
    OPENAI_BASE_URL: baseURL,
    OPENAI_MAX_RETRIES: "0",
    OPENAI_TIMEOUT_MS: "3000",
  };
}

test("a model server that went away fails the turn with 502 model_error naming the base URL, not the key, the session and its id intact", async () => {
  const fake = await startFakeOpenAI([ledgerScript]);
  const server = await startTestServer({ flows: ledgerFlows, env: liveEnv(fake.baseURL) });
  const client = jsonClient(server.url);
  try {
    const first = await client.post("/ai/chat", { flow: "LedgerFlow", message: "bolts" });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const id = first.body["session"] as string;
    const before = await server.app.store.fetchAll(id);
    await fake.close();

    const failed = await client.post("/ai/chat", { message: "nuts" }, { CHAT_SESSION_ID: id });
    assert.equal(failed.status, 502, JSON.stringify(failed.body));
    const error = failed.body["error"] as { code: string; message: string };
    assert.equal(error.code, "model_error");
    assert.match(error.message, /failed for LedgerFlow\/LedgerStep: Connection error\. The turn was not applied; /);
    assert.ok(error.message.includes(`OPENAI_BASE_URL (${fake.baseURL})`), error.message);
    assert.doesNotMatch(error.message, /\.\./);
    assert.ok(!error.message.includes(KEY), "the key is never in the message");
    assert.equal(failed.body["session"], id);
    assert.equal(failed.headers["chat_session_id"], id);
    assert.deepStrictEqual(await server.app.store.fetchAll(id), before);
  } finally {
    client.close();
    await server.close();
    await fake.close();
  }
});

test("a base URL with a user and password is named without them", async () => {
  const port = await refusingPort();
  const server = await startTestServer({
    flows: ledgerFlows,
    env: liveEnv(`http://flow:hunter2-password@127.0.0.1:${port}/v1`),
  });
  const client = jsonClient(server.url);
  try {
    const failed = await client.post("/ai/chat", { flow: "LedgerFlow", message: "bolts" });
    assert.equal(failed.status, 502, JSON.stringify(failed.body));
    const error = failed.body["error"] as { code: string; message: string };
    assert.equal(error.code, "model_error");
    assert.ok(error.message.includes(`OPENAI_BASE_URL (http://127.0.0.1:${port}/v1)`), error.message);
    assert.ok(!error.message.includes("hunter2"), error.message);
  } finally {
    client.close();
    await server.close();
  }
});
