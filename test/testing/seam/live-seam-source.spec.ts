import assert from "node:assert/strict";
import { after, before, beforeEach, test } from "node:test";
import { loadConfig } from "../../../src/config.ts";
import { ProviderGate } from "../../../src/testing/limits/provider-gate.ts";
import { RunArbiter } from "../../../src/testing/limits/run-arbiter.ts";
import { runLimits } from "../../../src/testing/limits/run-limits.ts";
import { liveSeamSource } from "../../../src/testing/seam/live-seam-source.ts";
import { seamCallOf } from "../../support/seam-call-of.ts";
import {
  chatCompletion,
  responsesAnswer,
  startStandInProvider,
  type StandInProvider,
} from "../../support/stand-in-provider.ts";

// The live source forwards an app's model call to the provider at the same API, with the run's key,
// not streamed, and reads the answer back; a local stand-in plays the provider.

const KEY = "sk-run-key-0123456789";
const WEATHER = { id: "call_7", name: "get_weather", arguments: '{"city":"Paris"}' };

let provider: StandInProvider;
let textAnswer: StandInProvider["answer"];
before(async () => {
  provider = await startStandInProvider();
  textAnswer = provider.answer;
});
after(() => provider.close());
beforeEach(() => {
  provider.requests.length = 0;
  provider.answer = textAnswer;
});

function live(gate = new ProviderGate(loadConfig({}), "Desk: weather", runLimits(new RunArbiter(), false))) {
  return {
    gate,
    source: liveSeamSource({ baseUrl: provider.baseURL, apiKey: KEY, fetch: gate.fetchFor("model"), timeoutMs: 5000 }),
  };
}

test("a Chat Completions call goes to /chat/completions with the run's key and the app's body, not streamed, and its tool calls, text and usage come back", async () => {
  provider.answer = () => ({ status: 200, body: chatCompletion({ content: "Let me look.", toolCalls: [WEATHER] }) });
  const { request, call } = seamCallOf("chat", "Weather in Paris?");
  const answer = await live().source(request, call);

  assert.deepEqual(answer, {
    reply: { content: "Let me look.", toolCalls: [WEATHER] },
    usage: { input: 12, output: 5 },
  });
  assert.equal(provider.requests.length, 1);
  const [sent] = provider.requests;
  assert.equal(sent!.path, "/v1/chat/completions");
  assert.equal(sent!.authorization, `Bearer ${KEY}`);
  const { stream: _stream, stream_options: _options, ...body } = call.body as Record<string, unknown>;
  assert.deepEqual(sent!.body, body, "the app's body, its streaming dropped");
});

test("a Responses API call goes to /responses, its message text and function calls read back under the call ids the app answers to", async () => {
  provider.answer = () => ({ status: 200, body: responsesAnswer({ content: "Checking.", toolCalls: [WEATHER] }) });
  const { request, call } = seamCallOf("responses", "Weather in Paris?");
  const answer = await live().source(request, call);

  assert.deepEqual(answer, { reply: { content: "Checking.", toolCalls: [WEATHER] }, usage: { input: 30, output: 7 } });
  const [sent] = provider.requests;
  assert.equal(sent!.path, "/v1/responses");
  assert.equal(sent!.authorization, `Bearer ${KEY}`);
  assert.equal(sent!.body["stream"], undefined);
  assert.equal(sent!.body["instructions"], "You forecast the weather.");
});

test("the key goes with every call, and the conversation's gate counts each API's usage as the model's tokens", async () => {
  const { gate, source } = live();
  const before = gate.usage.snapshot();
  for (const api of ["chat", "responses", "chat"] as const) {
    const { request, call } = seamCallOf(api, "Weather in Paris?");
    await source(request, call);
  }
  assert.deepEqual(
    provider.requests.map((sent) => sent.authorization),
    Array(3).fill(`Bearer ${KEY}`),
  );
  assert.deepEqual(gate.usage.since(before), { model: { input: 12 + 30 + 12, output: 5 + 7 + 5 } });
});

test("a provider's error answer fails with model_error naming its status and message, the key redacted", async () => {
  provider.answer = (sent) => ({
    status: 401,
    body: {
      error: { message: `Incorrect API key provided: ${sent.authorization?.slice(7)}.`, type: "invalid_request_error" },
    },
  });
  const { request, call } = seamCallOf("responses", "Weather in Paris?");
  await assert.rejects(live().source(request, call), (error: Error & { code?: string }) => {
    assert.equal(error.code, "model_error");
    assert.equal(
      error.message,
      `The provider answered 401 to the app's model call (POST ${provider.baseURL}/responses): ` +
        '"Incorrect API key provided: [redacted].". ' +
        "Check OPENAI_API_KEY, OPENAI_BASE_URL and the model the app names, or play the scenario with FLOW_MODEL=scripted.",
    );
    return true;
  });
});

test("a provider that cannot be reached fails with model_error naming where it was asked", async () => {
  const gone = await startStandInProvider();
  await gone.close();
  const gate = new ProviderGate(loadConfig({}), "Desk: weather", runLimits(new RunArbiter(), false));
  const source = liveSeamSource({ baseUrl: gone.baseURL, apiKey: KEY, fetch: gate.fetchFor("model"), timeoutMs: 5000 });
  const { request, call } = seamCallOf("chat", "Weather in Paris?");
  await assert.rejects(source(request, call), (error: Error & { code?: string }) => {
    assert.equal(error.code, "model_error");
    assert.match(
      error.message,
      new RegExp(
        `^The model call of the app \\(POST ${gone.baseURL.replace(/[.]/g, "\\.")}/chat/completions\\) could not reach the provider: `,
      ),
    );
    return true;
  });
});
