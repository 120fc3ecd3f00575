import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { after, before, describe, test } from "node:test";
import type { Scenario } from "../../src/testing/scenario/scenario.ts";
import { loadScenario } from "../../src/testing/scenario/load-scenario.ts";
import { basicFlowEntry } from "../fixtures/flows/index.ts";
import { basicFlowProject } from "../support/basic-flow-project.ts";
import { runFlowcheck } from "../support/child-run.ts";
import { tempDir } from "../support/temp-path.ts";

// A project whose BasicFlow has a scripted user: flowcheck test plays its simulated scenario and
// writes run-results.json, which from-results then reads, as a person would after a run.
const ID = "scenarios/wick.scenario.json#wick";

const user = {
  persona: "John Wick, who wants the weather and to leave his address",
  goal: "Save his address",
  facts: { name: "John Wick", cities: "LA, NYC", address: "1600 sw murray blvd, beaverton, oregon 97006" },
};
const success = {
  completed: true,
  finalState: { NameStep: { name: "John Wick" } },
  responseMustInclude: ["today", "saved"],
  responseMustNotInclude: ["placeholder"],
};

const removals: (() => void)[] = [];
after(() => removals.forEach((remove) => remove()));

/** A project (removed after the file's tests) that has run its one simulated scenario, `wick`. */
async function ranProject(scenario: Record<string, unknown>): Promise<string> {
  const dir = await basicFlowProject({ "wick.scenario.json": { flowName: "BasicFlow", user, success, ...scenario } });
  removals.push(dir.remove);
  await runFlowcheck(["test", "scenarios"], {}, undefined, dir.path);
  return dir.path;
}

describe("flowcheck from-results writes a conversation of a run as a fixed scenario", { concurrency: 4 }, () => {
  let passed: string;
  let failed: string;
  before(async () => {
    [passed, failed] = await Promise.all([
      ranProject({ turns: [{ label: "opening", input: "John Wick", expectedActiveStep: "WeatherStep" }] }),
      ranProject({ success: { ...success, finalState: { AddressStep: { address: { country: "US" } } } } }),
    ]);
  });

  test("a simulated conversation that passed is written beside its scenario, and flowcheck test passes it", async () => {
    const run = await runFlowcheck(["from-results", ID], {}, undefined, passed);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const file = join("scenarios", "wick.from-run.scenario.json");
    assert.match(run.stdout, /flowcheck: wrote scenarios\/wick\.from-run\.scenario\.json \(3 turns\)/);
    assert.match(run.stdout, /flowcheck test scenarios\/wick\.from-run\.scenario\.json/);
    const scenario = JSON.parse(readFileSync(join(passed, file), "utf8")) as Scenario;
    assert.deepEqual(
      scenario.turns.map((turn) => [turn.label, turn.expectedActiveStep, turn.completed, turn.responseMustInclude]),
      [
        ["opening", "WeatherStep", false, undefined],
        ["user 1: LA, NYC", "AddressStep", false, ["today"]],
        ["user 2: 1600 sw murray blvd, beaverton, oregon 97006", "AddressStep", true, ["saved"]],
      ],
    );
    assert.ok(existsSync(resolve(passed, "scenarios", scenario.$schema!)), scenario.$schema);
    assert.equal(loadScenario(join(passed, file), [basicFlowEntry.flow]).scenario.turns.length, 3);
    const again = await runFlowcheck(["test", file], {}, undefined, passed);
    assert.equal(again.code, 0, again.stdout + again.stderr);
    assert.match(again.stdout, /1 conversation: 1 passed, 0 failed/);
  });

  test("an id the results do not hold is refused with the closest id", async () => {
    const run = await runFlowcheck(["from-results", "scenarios/wikc.scenario.json#wick"], {}, undefined, passed);
    assert.equal(run.code, 1, run.stdout);
    assert.match(
      run.stderr,
      /flowcheck: conversation_not_found: .*Did you mean "scenarios\/wick\.scenario\.json#wick"\?/,
    );
  });

  test("a conversation that failed is refused, saying why, and nothing is written", async () => {
    const run = await runFlowcheck(["from-results", "wick"], {}, undefined, failed);
    assert.equal(run.code, 1, run.stdout);
    assert.match(
      run.stderr,
      /flowcheck: conversation_not_passed: .*success\.finalState\.AddressStep.*would expect the failure/,
    );
    assert.equal(existsSync(join(failed, "scenarios", "wick.from-run.scenario.json")), false);
  });

  test("an existing file is kept unless --force", async () => {
    const out = join(passed, "kept.scenario.json");
    writeFileSync(out, "{}");
    const run = await runFlowcheck(["from-results", ID, "--out", out], {}, undefined, passed);
    assert.equal(run.code, 1, run.stdout);
    assert.match(run.stderr, /flowcheck: scenario_exists: .*kept\.scenario\.json already exists; .*--force/);
    assert.equal(readFileSync(out, "utf8"), "{}");
    const forced = await runFlowcheck(["from-results", ID, "--out", out, "--force"], {}, undefined, passed);
    assert.equal(forced.code, 0, forced.stderr);
    assert.equal((JSON.parse(readFileSync(out, "utf8")) as Scenario).turns.length, 3);
  });

  test("with no results file it says to run flowcheck test first", async () => {
    const dir = await tempDir("from-results-none");
    try {
      const run = await runFlowcheck(["from-results", ID], {}, undefined, dir.path);
      assert.equal(run.code, 1, run.stdout);
      assert.match(
        run.stderr,
        /flowcheck: results_invalid: There is no test\/\.tmp\/run-results\.json: run flowcheck test first/,
      );
      const given = await runFlowcheck(["from-results", ID, "--results", "none.json"], {}, undefined, dir.path);
      assert.equal(given.code, 1, given.stdout);
      assert.match(given.stderr, /flowcheck: results_invalid: none\.json: no such file/);
    } finally {
      dir.remove();
    }
  });
});
