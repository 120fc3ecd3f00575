import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "node:test";
import { loadConfig } from "../../../src/config.ts";
import { flowcheckApi, runScenario, type ScenarioTarget } from "../../../src/testing/index.ts";
import { collect, fakeScenario } from "../../support/fake-chat-server.ts";

/** A server that reads every request and never answers it; `requests` counts what it received. */
async function silentServer(): Promise<{ url: string; requests: number; close(): Promise<void> }> {
  const state = { requests: 0 };
  const server = http.createServer((req) => {
    state.requests++;
    req.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get requests() {
      return state.requests;
    },
    close: () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      return closed;
    },
  };
}

test("a turn the server never answers fails once the turn timeout passes, naming it, and the rest of the scenario is skipped", async () => {
  const server = await silentServer();
  const target: ScenarioTarget = {
    description: { baseUrl: server.url, pins: {} },
    ...flowcheckApi(server.url),
    sessions: { unavailable: "not read in this test" },
    close: async () => {},
  };
  try {
    const loaded = fakeScenario([
      { label: "first", input: "hello", expectedActiveStep: "AskStep" },
      { label: "second", input: "again", expectedActiveStep: "NextStep" },
    ]);
    const played = await collect(runScenario(loaded, target, { turnTimeoutMs: 200 }));
    const [first, second] = played.turns;
    assert.equal(first!.outcome, "failed");
    assert.equal(
      first!.failure,
      `turn 1 'first': POST ${server.url}/ai/chat gave no whole answer within 200 ms (FLOW_TURN_TIMEOUT_MS); ` +
        "the server may be stuck, or a live turn slower than that: raise FLOW_TURN_TIMEOUT_MS if so.",
    );
    // The report names the key the unanswered turn went under, with which it can be sent again safely.
    assert.match(first!.idempotencyKey ?? "", /^[0-9a-f-]{36}-1$/);
    assert.deepEqual([second!.outcome, second!.skipReason], ["skipped", "turn 1 failed"]);
    assert.equal(played.outcome, "failed");
    assert.equal(server.requests, 1, "the second turn is never sent");
  } finally {
    await server.close();
  }
});

test("FLOW_TURN_TIMEOUT_MS is five minutes unless set, and must be a positive whole number of milliseconds", () => {
  assert.equal(loadConfig({}).turnTimeoutMs, 300_000);
  assert.equal(loadConfig({ FLOW_TURN_TIMEOUT_MS: "1500" }).turnTimeoutMs, 1500);
  assert.throws(() => loadConfig({ FLOW_TURN_TIMEOUT_MS: "0" }), {
    code: "config_invalid",
    message: /FLOW_TURN_TIMEOUT_MS="0" is not valid: expected a positive whole number of milliseconds\./,
  });
});
