import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test, type TestContext } from "node:test";
import type { RunResults } from "../../src/testing/report/run-results.ts";
import { runFlowcheck } from "../support/child-run.ts";
import { basicFlowProject } from "../support/basic-flow-project.ts";

// A project on flowcheck's engine whose BasicFlow has a scripted user: flowcheck test plays its
// simulated scenarios on every run, with no model and no network.

const facts = { name: "John Wick", cities: "LA, NYC", address: "1600 sw murray blvd, beaverton, oregon 97006" };
const user = { persona: "John Wick, who wants the weather and to leave his address", goal: "Save his address", facts };
const success = {
  completed: true,
  finalState: { NameStep: { name: "John Wick" }, AddressStep: { address: { zip: "97006" } } },
  responseMustNotInclude: ["placeholder"],
};

/** A project in a temp folder, removed after the test, with one scenario holding `scenario`; `withUser` false registers the flow without its scripted user. */
async function project(t: TestContext, scenario: Record<string, unknown>, withUser = true): Promise<string> {
  const dir = await basicFlowProject(
    { "wick.scenario.json": { flowName: "BasicFlow", user, success, ...scenario } },
    withUser,
  );
  t.after(dir.remove);
  return dir.path;
}

function resultsOf(cwd: string): RunResults {
  return JSON.parse(readFileSync(join(cwd, "test", ".tmp", "run-results.json"), "utf8")) as RunResults;
}

describe("flowcheck test plays a simulated user with the flow's scripted user", { concurrency: 3 }, () => {
  test("a simulated conversation reaches its goal and passes on the stored state, a test for each message", async (t) => {
    const cwd = await project(t, {});
    const run = await runFlowcheck(["test", "scenarios"], {}, undefined, cwd);
    const output = run.stdout + run.stderr;
    assert.equal(run.code, 0, output);
    for (const name of [
      "simulated user: John Wick",
      "1. user: John Wick",
      "2. user: LA, NYC",
      "3. user: 1600 sw murray",
    ])
      assert.ok(output.includes(name), `${name} in:\n${output}`);
    assert.match(output, /scripted wrote 3 messages; ended: flow-completed \(the flow completed on turn 3\)/);
    const [conversation] = resultsOf(cwd).conversations;
    assert.equal(conversation?.outcome, "passed", conversation?.reason);
    assert.deepEqual(conversation?.simulation?.end, {
      reason: "flow-completed",
      detail: "the flow completed on turn 3",
    });
    assert.deepEqual(
      conversation?.turns.map((turn) => [turn.number, turn.stored?.step, turn.simulated?.turn]),
      [
        [1, "WeatherStep", 1],
        [2, "AddressStep", 2],
        [3, "AddressStep", 3],
      ],
    );
  });

  test("a finalState the flow never stores fails the conversation, naming the key", async (t) => {
    const cwd = await project(t, {
      success: { ...success, finalState: { AddressStep: { address: { country: "US" } } } },
    });
    const run = await runFlowcheck(["test", "scenarios"], {}, undefined, cwd);
    assert.equal(run.code, 1, run.stdout);
    assert.match(run.stdout, /success\.finalState\.AddressStep: steps\.AddressStep\.address\.country/);
  });

  test("a user that never gets what it wants ends at maxTurns, and the run says so", async (t) => {
    const cwd = await project(t, { user: { ...user, facts: { ...facts, cities: "Paris" }, maxTurns: 4 } });
    const run = await runFlowcheck(["test", "scenarios"], {}, undefined, cwd);
    assert.equal(run.code, 1, run.stdout);
    assert.match(run.stdout, /ended: max-turns \(the user wrote 4 messages \(maxTurns\) without saying it was done\)/);
    assert.match(run.stdout, /success\.completed: expected runStatus completed at the end, stored running/);
    assert.equal(resultsOf(cwd).conversations[0]?.simulation?.end.reason, "max-turns");
  });

  test("repeated, a simulated scenario reports its successes over its tries and pass^k", async (t) => {
    const cwd = await project(t, {});
    const run = await runFlowcheck(["test", "scenarios", "--repeat", "3"], {}, undefined, cwd);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /3\/3 tries succeeded; pass\^1 100%, pass\^2 100%, pass\^3 100%/);
    const simulated = resultsOf(cwd).simulated;
    assert.deepEqual(
      simulated?.scenarios.map((each) => [each.name, each.tries, each.successes, each.passK, each.flaky]),
      [["wick", 3, 3, [1, 1, 1], false]],
    );
  });

  test("a flow without a scripted user fails its simulated scenario, saying what to add", async (t) => {
    const cwd = await project(t, {}, false);
    const run = await runFlowcheck(["test", "scenarios"], {}, undefined, cwd);
    assert.equal(run.code, 1, run.stdout);
    assert.match(run.stdout, /BasicFlow has no scripted user: add `user` to its FlowEntry/);
  });
});
