import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { loadScenario, runScenario, startScenarioTarget } from "../../../src/testing/index.ts";
import { BasicFlow, basicFlowEntry } from "../../fixtures/flows/index.ts";
import { envWith } from "../../support/env-with.ts";
import { tempDir } from "../../support/temp-path.ts";
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
      "failModelCall: the turn made 2 model calls, so call 9 never failed; pick a call the turn makes",
    ),
    failures(turn).join("\n"),
  );
  assert.equal(played.turns[2]!.skipReason, "turn 2 failed");
});

test("against a target that runs elsewhere a failModelCall turn is skipped with the reason, and the turns after it are played", async () => {
  const { turns, outcome } = await playAgainstFake(
    fakeScenario([
      { label: "first", input: "hello", expectedActiveStep: "AskStep" },
      { label: "fault", input: "again", failModelCall: 1, expectedStatus: 502 },
      { label: "second", input: "again", expectedActiveStep: "NextStep" },
    ]),
  );
  assert.deepEqual(
    turns.map((turn) => [turn.outcome, turn.skipReason]),
    [
      ["passed", undefined],
      ["skipped", "failModelCall needs the app in the test process; against FLOW_BASE_URL the turn is not played"],
      ["passed", undefined],
    ],
  );
  assert.equal(outcome, "passed");
});
