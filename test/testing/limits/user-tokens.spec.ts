import assert from "node:assert/strict";
import { test } from "node:test";
import { loadConfig } from "../../../src/config.ts";
import { ProviderGate } from "../../../src/testing/limits/provider-gate.ts";
import { RunArbiter } from "../../../src/testing/limits/run-arbiter.ts";
import { runLimits } from "../../../src/testing/limits/run-limits.ts";
import { liveUser } from "../../../src/testing/user/live-user.ts";
import { fakeOpenAIPerFile } from "../../support/fake-openai-per-file.ts";
import type { FakeOpenAI } from "../../support/fake-openai-server.ts";

let fake: FakeOpenAI;
fakeOpenAIPerFile([], (started) => (fake = started));

test("the simulated user's calls go through the provider gate as kind user, their tokens counted apart from the model's and the judge's", async () => {
  fake.answer = () => ({ judge: JSON.stringify({ message: "lisbon", done: false }) });
  const gate = new ProviderGate(loadConfig({}), "HotelFlow: simulated", runLimits(new RunArbiter(), false));
  const before = gate.usage.snapshot();
  const user = liveUser({
    apiKey: "sk-test",
    baseURL: fake.baseURL,
    model: "user-model",
    maxRetries: 0,
    timeoutMs: 5000,
    fetch: gate.fetchFor("user"),
  });
  await user.next({
    user: { persona: "Ada", goal: "a room", facts: {}, style: "cooperative", maxTurns: 3 },
    conversation: [],
    turn: 1,
  });
  assert.deepEqual(gate.usage.since(before), { user: { input: 100, output: 20 } });
  assert.deepEqual(gate.usage.snapshot(), {
    model: { input: 0, output: 0 },
    judge: { input: 0, output: 0 },
    user: { input: 100, output: 20 },
  });
});
