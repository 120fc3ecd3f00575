import assert from "node:assert/strict";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { test } from "node:test";
import { demoFlows } from "../../src/flows/index.ts";
import { loadScenario, runScenario, ScenarioRun, startScenarioTarget, type LoadedScenario } from "../../src/testing/index.ts";
import { tempDir } from "../support/temp-path.ts";
import { checkNamed, collect, fakeScenario, playAgainstFake } from "./fake-chat-server.ts";

const BASIC_FLOW_FILE = resolve(import.meta.dirname, "..", "..", "scenarios", "basic-flow.scenario.json");

/** The BasicFlow scenario, with `restartBefore` on the turns at `indexes`. */
function basicFlowRestarting(...indexes: number[]): LoadedScenario {
  const loaded = loadScenario(BASIC_FLOW_FILE, demoFlows.map((entry) => entry.flow));
  const turns = loaded.scenario.turns.map((turn, index) => (indexes.includes(index) ? { ...turn, restartBefore: true } : turn));
  return { ...loaded, scenario: { ...loaded.scenario, turns } };
}

/** Runs `body` with FLOW_BASE_URL unset, so the app boots in this process, and puts it back. */
async function inProcess(body: () => Promise<void>): Promise<void> {
  const saved = process.env["FLOW_BASE_URL"];
  delete process.env["FLOW_BASE_URL"];
  try {
    await body();
  } finally {
    if (saved !== undefined) process.env["FLOW_BASE_URL"] = saved;
  }
}

test("restarting an app booted in this process closes its store, folding the log into the file, and the session resumes from the file", async () => {
  const scratch = await tempDir("restart");
  try {
    await inProcess(async () => {
      const loaded = basicFlowRestarting();
      const target = await startScenarioTarget(loaded, { flows: demoFlows, scratchDir: scratch.path });
      const run = new ScenarioRun(loaded, target);
      try {
        run.start();
        for (const index of [0, 1]) assert.equal((await run.playTurn(index)).outcome, "passed");
        const wal = join(scratch.path, readdirSync(scratch.path)[0]!, "sessions.sqlite-wal");
        assert.ok(statSync(wal).size > 0, "two turns are in the write-ahead log");
        await target.restart!();
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
    });
  } finally {
    scratch.remove();
  }
});

test("a turn with restartBefore is played on an app booted again, and says so among its checks", async () => {
  const scratch = await tempDir("restart");
  try {
    await inProcess(async () => {
      const loaded = basicFlowRestarting(2, 5);
      const target = await startScenarioTarget(loaded, { flows: demoFlows, scratchDir: scratch.path });
      let played: Awaited<ReturnType<typeof collect>>;
      try {
        played = await collect(runScenario(loaded, target));
      } finally {
        await target.close();
      }
      assert.equal(played.outcome, "passed", played.turns.find((turn) => turn.failure)?.failure ?? played.final.failure);
      assert.deepEqual(
        played.turns.map((turn) => turn.checks.find((c) => c.name === "restartBefore")?.outcome),
        [undefined, undefined, "passed", undefined, undefined, "passed"],
      );
    });
  } finally {
    scratch.remove();
  }
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
    message: "the target runs elsewhere (FLOW_BASE_URL) and cannot be restarted from here; the turn was played without a restart",
  });
});
