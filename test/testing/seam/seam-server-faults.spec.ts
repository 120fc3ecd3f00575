import assert from "node:assert/strict";
import { test } from "node:test";
import OpenAI from "openai";
import { startSeamServer } from "../../../src/testing/seam/seam-server.ts";
import { recordingHandler, text } from "../../support/recording-seam-handler.ts";

// Faults, refusals and the seam's own errors as the SDKs meet them, and a close that never waits on a held call.

const HI = { model: "m", messages: [{ role: "user" as const, content: "Hi" }] };

test("an error fault is a 500 in the provider's shape", async () => {
  const seam = await startSeamServer(recordingHandler({ fault: "error" }));
  try {
    const client = new OpenAI({ baseURL: seam.baseUrl, apiKey: "placeholder", maxRetries: 0, timeout: 5000 });
    await assert.rejects(client.chat.completions.create(HI), (error: InstanceType<typeof OpenAI.APIError>) => {
      assert.equal(error.status, 500);
      assert.equal((error.error as { type: string }).type, "server_error");
      return true;
    });
  } finally {
    await seam.close();
  }
});

test("a rate-limit fault is a 429 saying Retry-After 1, and the SDK's retry is served", async () => {
  const handler = recordingHandler({ fault: "rate-limit" }, { fault: "rate-limit" }, { reply: text("Hello.") });
  const seam = await startSeamServer(handler);
  try {
    const limited = await fetch(`${seam.baseUrl}/chat/completions`, { method: "POST", body: JSON.stringify(HI) });
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get("retry-after"), "1");
    assert.equal(limited.headers.get("retry-after-ms"), "1000");
    assert.equal(((await limited.json()) as { error: { code: string } }).error.code, "rate_limit_exceeded");
    const client = new OpenAI({ baseURL: seam.baseUrl, apiKey: "placeholder", maxRetries: 1, timeout: 5000 });
    const completion = await client.chat.completions.create(HI);
    assert.equal(completion.choices[0]!.message.content, "Hello.");
    assert.equal(handler.calls.length, 3);
  } finally {
    await seam.close();
  }
});

test("a timeout fault holds the call holdMs, then resets the connection", async () => {
  const seam = await startSeamServer(recordingHandler({ fault: "timeout", holdMs: 300 }));
  try {
    const client = new OpenAI({ baseURL: seam.baseUrl, apiKey: "placeholder", maxRetries: 0, timeout: 5000 });
    const started = performance.now();
    await assert.rejects(client.chat.completions.create(HI), OpenAI.APIConnectionError);
    const held = performance.now() - started;
    assert.ok(held >= 290 && held < 4000, `held ${held} ms`);
  } finally {
    await seam.close();
  }
});

test("close ends a connection held by a timeout fault at once", async () => {
  const handler = recordingHandler({ fault: "timeout", holdMs: 60_000 });
  const seam = await startSeamServer(handler);
  const sent = fetch(`${seam.baseUrl}/responses`, {
    method: "POST",
    body: JSON.stringify({ model: "m", input: "Hi" }),
  });
  while (handler.calls.length === 0) await new Promise((done) => setTimeout(done, 10));
  const started = performance.now();
  await seam.close();
  assert.ok(performance.now() - started < 1000);
  await assert.rejects(sent);
});

test("an unknown route is a 404 naming the two routes served, and a body that is not JSON a 400", async () => {
  const handler = recordingHandler();
  const seam = await startSeamServer(handler);
  try {
    const missing = await fetch(`${seam.baseUrl}/embeddings`, { method: "POST", body: "{}" });
    assert.equal(missing.status, 404);
    const { error } = (await missing.json()) as { error: { message: string; type: string } };
    assert.match(error.message, /POST \/v1\/chat\/completions and POST \/v1\/responses, not POST \/v1\/embeddings/);
    assert.equal((await fetch(`${seam.baseUrl}/responses`)).status, 404);
    const broken = await fetch(`${seam.baseUrl}/responses`, { method: "POST", body: "{not json" });
    assert.equal(broken.status, 400);
    assert.equal(((await broken.json()) as { error: { type: string } }).error.type, "invalid_request_error");
    assert.equal(handler.calls.length, 0);
  } finally {
    await seam.close();
  }
});

test("a stream that is not a boolean is unsupported, and a handler that throws is a 500 with its message", async () => {
  const handler = recordingHandler({ reply: text("unused") });
  const seam = await startSeamServer(handler);
  try {
    const odd = await fetch(`${seam.baseUrl}/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ ...HI, stream: "yes" }),
    });
    assert.equal(odd.status, 400);
    assert.match(((await odd.json()) as { error: { message: string } }).error.message, /cannot serve stream = "yes"/);
    const failed = await fetch(`${seam.baseUrl}/chat/completions`, { method: "POST", body: JSON.stringify(HI) });
    assert.equal(failed.status, 500);
    assert.match(((await failed.json()) as { error: { message: string } }).error.message, /no outcome left for call 2/);
    const again = await fetch(`${seam.baseUrl}/chat/completions`, { method: "POST", body: JSON.stringify(HI) });
    assert.equal(again.status, 500, "the server still answers after a handler failed");
  } finally {
    await seam.close();
  }
});
