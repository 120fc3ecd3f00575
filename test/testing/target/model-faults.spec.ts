import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { loadScenario, runScenario, startScenarioTarget } from "../../../src/testing/index.ts";
import { BasicFlow, basicFlowEntry } from "../../fixtures/flows/index.ts";
import { envWith } from "../../support/env-with.ts";
import { tempDir } from "../../support/temp-path.ts";
import { turnToolCalls } from "../../../src/testing/checks/turn-tool-calls.ts";
import { ModelFaults } from "../../../src/testing/target/model-faults.ts";
import { checkNamed, collect, failures, fakeScenario, playAgainstFake } from "../../support/fake-chat-server.ts";

/** Plays a BasicFlow scenario with these turns, loaded from a file like any other, in this process. */
async function playBasicFlow(turns: unknown[]) {
  const dir = await tempDir("model-faults");
  try {
    const file = join(dir.path, "faults.scenario.json");
    writeFileSync(file, JSON.stringify({ flowName: "BasicFlow", turns }));
    const loaded = loadScenario(file, [BasicFlow]);
    const target = await startScenarioTarget(loaded, {
      flows: [basicFlowEntry],
      scratchDir: dir.path,
      env: envWith({ FLOW_BASE_URL: undefined }),
    });
    try {
      return await collect(runScenario(loaded, target));
    } finally {
      await target.close();
    }
  } finally {
    dir.remove();
  }
}

const placeholder = { label: "placeholder", input: "John Doe", expectedActiveStep: "NameStep" };
const accepted = {
  label: "name accepted",
  input: "John Wick",
  expectedActiveStep: "WeatherStep",
  expectState: { NameStep: { name: "John Wick" } },
};

test("failModelCall makes that model call of the turn fail: the app answers 502 model_error, the session is unchanged, and the same message then goes through", async () => {
  const played = await playBasicFlow([
    placeholder,
    {
      label: "the model fails",
      input: "John Wick",
      failModelCall: 2,
      expectedStatus: 502,
      responseMustInclude: ["model call 2"],
    },
    accepted,
  ]);
  assert.equal(played.outcome, "passed", played.turns.find((turn) => turn.failure)?.failure);
  const failing = played.turns[1]!;
  assert.equal(failing.response?.status, 502);
  assert.equal((failing.response?.body as { error: { code: string } }).error.code, "model_error");
  assert.equal(checkNamed(failing, "unchanged").outcome, "passed");
  assert.equal(checkNamed(failing, "failModelCall").outcome, "passed");
  assert.equal(played.turns[2]!.stored?.turns, 2, "the failed turn was not applied");
});

test("a failModelCall past the calls the turn makes fails the turn, saying how many calls it made", async () => {
  const played = await playBasicFlow([
    placeholder,
    { label: "never fails", input: "John Wick", failModelCall: 9, expectedStatus: 502 },
    accepted,
  ]);
  const turn = played.turns[1]!;
  assert.equal(turn.outcome, "failed");
  assert.ok(
    failures(turn).includes(
      'failModelCall: the turn made 2 model calls, so call 9 never got its "error" fault; pick a call the turn makes',
    ),
    failures(turn).join("\n"),
  );
  assert.equal(played.turns[2]!.skipReason, "turn 2 failed");
});

test("against a target that runs elsewhere a failModelCall or modelFault turn is skipped with the reason, and the turns after it are played", async () => {
  const { turns, outcome } = await playAgainstFake(
    fakeScenario([
      { label: "first", input: "hello", expectedActiveStep: "AskStep" },
      { label: "fault", input: "again", failModelCall: 1, expectedStatus: 502 },
      { label: "second", input: "again", expectedActiveStep: "NextStep" },
      { label: "timeout", input: "again", modelFault: { call: 1, kind: "timeout" }, expectedStatus: 502 },
    ]),
  );
  assert.deepEqual(
    turns.map((turn) => [turn.outcome, turn.skipReason]),
    [
      ["passed", undefined],
      [
        "skipped",
        `failModelCall needs the app in the test process, or a target whose model flowcheck serves (its entry's "start" and "model"); against FLOW_BASE_URL the turn is not played`,
      ],
      ["passed", undefined],
      [
        "skipped",
        `modelFault needs the app in the test process, or a target whose model flowcheck serves (its entry's "start" and "model"); against FLOW_BASE_URL the turn is not played`,
      ],
    ],
  );
  assert.equal(outcome, "passed");
});

/** The tool calls of the played scenario's turn `turn` (1 is the first), as its session stored them. */
function storedCalls(played: { final: { stored?: Parameters<typeof turnToolCalls>[0] } }, turn: number) {
  return turnToolCalls(played.final.stored!, turn).map((call) => [call.name, call.args, call.status]);
}

/** The error message of a turn's JSON error answer. */
function errorMessage(turn: { response?: { body?: unknown } }): string {
  return (turn.response?.body as { error: { message: string } }).error.message;
}

const NOT_JSON = (tool: string) => ({
  error: `The arguments of ${tool} are not valid JSON. Call it again with a JSON object.`,
});

test("an error, a rate-limit and a timeout fault each fail that call: 502 model_error naming the kind, the session unchanged, the timeout after its hold", async () => {
  const fault = (kind: string, extra: object = {}) => ({
    label: kind,
    input: "John Wick",
    modelFault: { call: 2, kind, ...extra },
    expectedStatus: 502,
  });
  const played = await playBasicFlow([
    placeholder,
    fault("error"),
    fault("rate-limit"),
    fault("timeout", { holdMs: 300 }),
    accepted,
  ]);
  assert.equal(played.outcome, "passed", played.turns.find((turn) => turn.failure)?.failure);
  const [, error, rateLimit, timeout] = played.turns;
  for (const turn of [error!, rateLimit!, timeout!]) {
    assert.equal((turn.response?.body as { error: { code: string } }).error.code, "model_error");
    assert.equal(checkNamed(turn, "unchanged").outcome, "passed");
    assert.equal(checkNamed(turn, "modelFault").outcome, "passed");
  }
  assert.match(
    errorMessage(error!),
    /model call 2 of this turn fail with a provider's error, as the scenario's "error" fault asks/,
  );
  assert.match(errorMessage(rateLimit!), /a provider's rate limit \(429\), as the scenario's "rate-limit" fault asks/);
  assert.match(errorMessage(timeout!), /held model call 2 of this turn 300 ms and reset its connection/);
  assert.ok(timeout!.millis!.http >= 300, `the timeout answered after ${timeout!.millis!.http} ms`);
  assert.equal(played.turns[4]!.stored?.turns, 2, "no failed turn was applied");
});

test("a malformed tool call is refused by the engine as arguments that are not JSON: the turn is answered (200), the call failed, and the step stays", async () => {
  const played = await playBasicFlow([
    placeholder,
    {
      label: "garbled",
      input: "John Wick",
      modelFault: { call: 1, kind: "malformed-tool-call" },
      expectedActiveStep: "NameStep",
      responseMustInclude: ["garbled that"],
      expectToolCalls: [{ name: "save_name", output: NOT_JSON("save_name") }],
    },
    accepted,
  ]);
  assert.equal(played.outcome, "passed", played.turns.find((turn) => turn.failure)?.failure);
  assert.equal(played.turns[1]!.response?.status, 200);
  assert.deepEqual(storedCalls(played, 2), [["save_name", '{"name":"John Wick"', "failed"]]);
  assert.equal(played.turns[2]!.stored?.turns, 3, "the garbled turn was applied, with the name unsaved");
});

test("a malformed-tool-call fault on a reply in text calls the step's first tool with arguments that are not JSON, which the engine refuses", async () => {
  const played = await playBasicFlow([
    placeholder,
    {
      label: "garbled weather",
      input: "John Wick",
      modelFault: { call: 2, kind: "malformed-tool-call" },
      expectedActiveStep: "WeatherStep",
      expectState: { NameStep: { name: "John Wick" } },
      responseMustInclude: ["garbled that"],
      expectToolCalls: [
        { name: "save_name", args: { name: "John Wick" } },
        { name: "get_weather", output: NOT_JSON("get_weather") },
      ],
    },
  ]);
  assert.equal(played.outcome, "passed", played.turns.find((turn) => turn.failure)?.failure);
  assert.deepEqual(storedCalls(played, 2), [
    ["save_name", { name: "John Wick" }, "returned"],
    ["get_weather", "{", "failed"],
  ]);
});

test("a truncated reply keeps the first half of its text and none of its tool calls: a call that was to save the name never runs", async () => {
  const played = await playBasicFlow([
    placeholder,
    {
      label: "cut call",
      input: "John Wick",
      modelFault: { call: 1, kind: "truncated" },
      expectedActiveStep: "NameStep",
    },
    {
      label: "cut answer",
      input: "John Wick",
      modelFault: { call: 2, kind: "truncated" },
      expectedActiveStep: "WeatherStep",
      expectState: { NameStep: { name: "John Wick" } },
    },
  ]);
  assert.equal(played.outcome, "passed", played.turns.find((turn) => turn.failure)?.failure);
  assert.deepEqual(storedCalls(played, 2), []);
  const whole = "Nice to meet you, John Wick. Which two cities should I check? Give two aliases, like LA, NYC.";
  assert.equal(played.turns[2]!.answer, whole.slice(0, Math.ceil(whole.length / 2)));
});

test("a malformed-tool-call fault on a call that offers no tools fails the call, saying it has no tool call to break", async () => {
  const faults = new ModelFaults();
  const model = faults.wrap({ flow: "BasicFlow", rootFlow: "BasicFlow", step: "AddressStep" }, () => ({
    invoke: async () => ({ content: "That's everything.", toolCalls: [] }),
  }));
  faults.arm({ call: 1, kind: "malformed-tool-call" });
  await assert.rejects(model.invoke({ system: "Done.", messages: [], tools: [] }), {
    message:
      'model call 1 of this turn offers the model no tools, so the scenario\'s "malformed-tool-call" fault ' +
      "has no tool call to break; put the fault on a call whose step has tools",
  });
  assert.equal(faults.disarm(), 1);
});
