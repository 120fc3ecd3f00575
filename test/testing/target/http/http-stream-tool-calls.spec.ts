import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, test } from "node:test";
import { loadConfig } from "../../../../src/config.ts";
import { runScenario } from "../../../../src/testing/index.ts";
import { ProviderGate } from "../../../../src/testing/limits/provider-gate.ts";
import { RunArbiter } from "../../../../src/testing/limits/run-arbiter.ts";
import { runLimits } from "../../../../src/testing/limits/run-limits.ts";
import type { Scenario, ScenarioTurn } from "../../../../src/testing/scenario/scenario.ts";
import { httpTarget } from "../../../../src/testing/target/http/http-target.ts";
import type { HttpTargetEntry } from "../../../../src/testing/target/http/http-target-entry.ts";
import { checkNamed, collect, failures } from "../../../support/fake-chat-server.ts";
import { listenOnLoopback, type LoopbackServer } from "../../../support/loopback-server.ts";

// An http target whose answer is the AI SDK UI message stream reports the tools each turn called,
// read from the stream's tool parts, so expectToolCalls is checked there rather than skipped.

const RECORDED = readFileSync(new URL("../../../fixtures/http-streams/ai-sdk-ui.sse", import.meta.url), "utf8");

let server: LoopbackServer;

before(async () => {
  server = await listenOnLoopback((request, response) => {
    request.resume();
    response.writeHead(200, { "content-type": "text/event-stream" }).end(RECORDED);
  });
});

after(() => server.close());

async function play(turn: Partial<ScenarioTurn>) {
  const entry: HttpTargetEntry = {
    kind: "http",
    baseUrl: server.url,
    turn: { path: "/chat", body: { message: "{{input}}" } },
    answer: { stream: "ai-sdk-ui" },
  };
  const scenario: Scenario = {
    flowName: "BookingFlow",
    turns: [{ label: "prices the stay", input: "2 nights", ...turn }],
  };
  const loaded = { file: "test/testing/target/http/booking.scenario.json", name: "booking", scenario };
  const config = loadConfig({});
  const provider = new ProviderGate(config, "booking", runLimits(new RunArbiter(), false));
  return await collect(runScenario(loaded, httpTarget(entry, "chat", "BookingFlow", config, provider)));
}

test("an ai-sdk-ui stream's tool call passes expectToolCalls with its arguments and output", async () => {
  const played = await play({
    expectToolCalls: [{ name: "priceStay", args: { nights: 2 }, output: { cents: 30000 } }],
  });
  assert.equal(played.outcome, "passed", played.turns.flatMap(failures).join("\n"));
  assert.equal(checkNamed(played.turns[0]!, "expectToolCalls").outcome, "passed");
});

test("an ai-sdk-ui stream's tool call with other arguments fails expectToolCalls, naming the call it made", async () => {
  const played = await play({ expectToolCalls: [{ name: "priceStay", args: { nights: 3 } }] });
  assert.deepEqual(failures(played.turns[0]!), [
    'expectToolCalls: turn 1: expectToolCalls[0] {"name":"priceStay","args":{"nights":3}} was not called: ' +
      'priceStay (call 1 of the turn) differs: args.nights: expected 3, found 2; the turn called priceStay({"nights":2}) → {"cents":30000}',
  ]);
});
