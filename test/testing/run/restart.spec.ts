import assert from "node:assert/strict";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import type { FlowEntry } from "../../../src/engine/index.ts";
import { loadScenario, runScenario, ScenarioRun, startScenarioTarget } from "../../../src/testing/index.ts";
import type { LoadedScenario } from "../../../src/testing/scenario/scenario.ts";
import { BasicFlow, basicFlowEntry } from "../../fixtures/flows/index.ts";
import { fixtureScenario } from "../../support/fixture-scenario.ts";
import { clockFlows } from "../../support/clock-flow.ts";
import { envWith } from "../../support/env-with.ts";
import { tempDir } from "../../support/temp-path.ts";
import { checkNamed, collect, fakeScenario, playAgainstFake } from "../../support/fake-chat-server.ts";

const BASIC_FLOW_FILE = fixtureScenario("basic-flow");

/** The BasicFlow scenario, with `restartBefore` on the turns at `indexes`. */
function basicFlowRestarting(...indexes: number[]): LoadedScenario {
  const loaded = loadScenario(BASIC_FLOW_FILE, [BasicFlow]);
  const turns = loaded.scenario.turns.map((turn, index) =>
    indexes.includes(index) ? { ...turn, restartBefore: true } : turn,
  );
  return { ...loaded, scenario: { ...loaded.scenario, turns } };
}

/** FLOW_BASE_URL and the clock's pin unset, so the app boots in this process on the scenario's own pins. */
const IN_PROCESS = envWith({ FLOW_BASE_URL: undefined, CLOCK_FLOW_CURRENT_DATE: undefined });

/** Plays `loaded` against the app booted in this process, with a scratch folder of its own. */
async function playHere(
  loaded: LoadedScenario,
  flows: readonly FlowEntry[],
): Promise<Awaited<ReturnType<typeof collect>>> {
  const scratch = await tempDir("restart");
  try {
    const target = await startScenarioTarget(loaded, { flows, scratchDir: scratch.path, env: IN_PROCESS });
    try {
      return await collect(runScenario(loaded, target));
    } finally {
      await target.close();
    }
  } finally {
    scratch.remove();
  }
}

test("restarting an app booted in this process closes its store, folding the log into the file, and the session resumes from the file", async () => {
  const scratch = await tempDir("restart");
  try {
    const loaded = basicFlowRestarting();
    const target = await startScenarioTarget(loaded, {
      flows: [basicFlowEntry],
      scratchDir: scratch.path,
      env: IN_PROCESS,
    });
    const run = new ScenarioRun(loaded, target);
    try {
      run.start();
      for (const index of [0, 1]) assert.equal((await run.playTurn(index)).outcome, "passed");
      const wal = join(scratch.path, readdirSync(scratch.path)[0]!, "sessions.sqlite-wal");
      assert.ok(statSync(wal).size > 0, "two turns are in the write-ahead log");
      await target.capabilities!.restart!();
      assert.ok(!existsSync(wal) || statSync(wal).size === 0, "the closed store folded its log into the file");
      for (const index of [2, 3, 4, 5]) {
        const report = await run.playTurn(index);
        assert.equal(report.outcome, "passed", report.failure);
      }
      assert.equal((await run.finish()).outcome, "passed");
    } finally {
      run.end();
      await target.close();
    }
  } finally {
    scratch.remove();
  }
});

test("a turn with restartBefore is played on an app booted again, and says so among its checks", async () => {
  const played = await playHere(basicFlowRestarting(2, 5), [basicFlowEntry]);
  assert.equal(played.outcome, "passed", played.turns.find((turn) => turn.failure)?.failure ?? played.final.failure);
  assert.deepEqual(
    played.turns.map((turn) => turn.checks.find((c) => c.name === "restartBefore")?.outcome),
    [undefined, undefined, "passed", undefined, undefined, "passed"],
  );
});

test("against a target that runs elsewhere, restartBefore is reported as skipped with the reason, and the turn is played", async () => {
  const { turns, outcome } = await playAgainstFake(
    fakeScenario([
      { label: "first", input: "hello", expectedActiveStep: "AskStep" },
      { label: "second", input: "again", expectedActiveStep: "NextStep", restartBefore: true },
    ]),
  );
  assert.equal(outcome, "passed");
  assert.deepEqual(checkNamed(turns[1]!, "restartBefore"), {
    contract: "persisted",
    name: "restartBefore",
    outcome: "skipped",
    message:
      "the target runs elsewhere (FLOW_BASE_URL) and cannot be restarted from here; the turn was played without a restart",
  });
});

const PIN = "2027-07-15T00:00:00.000Z";
const LATER = "2027-07-16T09:30:00.000Z";

test("clockAt boots the app again with the flow's clock moved to that instant, on the same session, for that turn and the ones after", async () => {
  const loaded: LoadedScenario = {
    file: "test/testing/clock.scenario.json",
    name: "clock",
    scenario: {
      flowName: "ClockFlow",
      env: { CLOCK_FLOW_CURRENT_DATE: PIN },
      turns: [
        { label: "pinned", input: "What day is it?", expectedActiveStep: "ClockStep", responseMustInclude: [PIN] },
        {
          label: "a day later",
          input: "And now?",
          expectedActiveStep: "ClockStep",
          clockAt: LATER,
          responseMustInclude: [LATER],
        },
        { label: "still later", input: "And now?", expectedActiveStep: "ClockStep", responseMustInclude: [LATER] },
      ],
    },
  };
  const played = await playHere(loaded, clockFlows);
  assert.equal(played.outcome, "passed", played.turns.find((turn) => turn.failure)?.failure);
  assert.deepEqual(
    played.turns.map((turn) => turn.checks.find((c) => c.name === "clockAt")?.outcome),
    [undefined, "passed", undefined],
  );
  assert.deepEqual(
    played.turns.map((turn) => turn.stored?.turns),
    [1, 2, 3],
    "one session throughout",
  );
});

test("against a target that runs elsewhere a clockAt turn fails without being sent, since its clock cannot be moved", async () => {
  const { turns, fake } = await playAgainstFake(
    fakeScenario([
      { label: "first", input: "hello", expectedActiveStep: "AskStep" },
      { label: "later", input: "again", expectedActiveStep: "NextStep", clockAt: LATER },
    ]),
  );
  assert.equal(
    turns[1]!.failure,
    `turn 2 'later': the target runs elsewhere (FLOW_BASE_URL), so its clock cannot be moved to ${LATER}; play this scenario against the app in the test process`,
  );
  assert.equal(fake.requests.length, 1);
});
