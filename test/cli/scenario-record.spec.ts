import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { cassettePathOf } from "../../src/testing/cassette/cassette.ts";
import type { CassetteFile } from "../../src/testing/cassette/cassette-file.ts";
import type { Scenario } from "../../src/testing/index.ts";
import { basicFlowScripts } from "../fixtures/flows/index.ts";
import { startFakeOpenAI } from "../support/fake-openai-server.ts";
import { repositoryCopy, type RepositoryCopy } from "../support/repository-copy.ts";

// scenario:record as docs/scenarios-from-sessions.md runs it, `printf '…' | npm run -s
// scenario:record -- BasicFlow` then `npm run test:flows -- scenarios/<name>.scenario.json`, word
// for word, in a copy of the repository whose one registered flow is the BasicFlow fixture.

/**
 * A copy of the repository for the tests of the describe that calls this, which take turns on it:
 * its scenarios and test/.tmp are theirs alone. One per group, not per test, since tsx compiles
 * each copy's code anew.
 */
function copyForThisGroup(): () => RepositoryCopy {
  let copy: RepositoryCopy;
  before(async () => (copy = await repositoryCopy("scenario-record", ["basicFlowEntry"])));
  after(() => copy.remove());
  return () => copy;
}

/** `printf '<lines>' | npm run -s scenario:record -- BasicFlow` in `copy`, as a person pipes a conversation in. */
const record = (copy: RepositoryCopy, lines: string, env: Record<string, string> = {}) =>
  copy.run("sh", ["-c", `printf '${lines}' | npm run -s scenario:record -- BasicFlow`], env);
const read = (copy: RepositoryCopy, name: string) =>
  JSON.parse(readFileSync(join(copy.path, copy.scenarioFile(name)), "utf8")) as Scenario;

// Two groups, each on a copy of its own (and the live test on a provider of its own), run side by side.
describe("scenario:record in a copy of the repository", { concurrency: 2 }, () => {
  describe("a recorded scenario and its suite", { concurrency: 1 }, () => {
    const copyOf = copyForThisGroup();
    test("a conversation piped into scenario:record shows each answer's step, run status and state change, and /save writes a scenario the BasicFlow suite passes", async () => {
      const copy = copyOf();
      const run = await record(copy, "John Wick\\nLA, NYC\\n/save tea-check\\n/quit\\n");
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /step WeatherStep · running\n {2}NameStep\.name = "John Wick"/);
      assert.match(run.stdout, /step WeatherStep → AddressStep · running\n {2}WeatherStep\.city_LA = 72/);
      assert.match(run.stdout, /wrote scenarios\/tea-check\.scenario\.json \(2 turns\)/);
      assert.deepEqual(
        read(copy, "tea-check").turns.map((turn) => [turn.input, turn.expectedActiveStep]),
        [
          ["John Wick", "WeatherStep"],
          ["LA, NYC", "AddressStep"],
        ],
      );
      const suite = await copy.testFlows(copy.scenarioFile("tea-check"));
      assert.equal(suite.code, 0, suite.stdout);
      assert.match(suite.stdout, /^# fail 0$/m);
      assert.match(suite.stdout, /tea-check/);
    });

    test("a recorded scenario whose written expectation is changed fails the suite", async () => {
      const copy = copyOf();
      const run = await record(copy, "John Wick\\nLA, NYC\\n/save changed\\n/quit\\n");
      assert.equal(run.code, 0, run.stderr);
      const scenario = read(copy, "changed");
      scenario.turns[1]!.expectState = { WeatherStep: { city_LA: 73 } };
      writeFileSync(join(copy.path, copy.scenarioFile("changed")), JSON.stringify(scenario));
      const suite = await copy.testFlows(copy.scenarioFile("changed"));
      assert.notEqual(suite.code, 0);
      assert.match(suite.stdout, /city_LA/);
    });
  });

  describe("/undo, refusals, --help and the live model", { concurrency: 1 }, () => {
    const copyOf = copyForThisGroup();
    test("/undo drops the last turn and rewinds the session, so the conversation goes on from the turn before", async () => {
      const copy = copyOf();
      const run = await record(copy, "John Doe\\nJohn Wick\\n/undo\\nJane Roe\\nLA, NYC\\n/save undone\\n/quit\\n");
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /dropped "John Wick"; 1 turns kept/);
      const scenario = read(copy, "undone");
      assert.deepEqual(
        scenario.turns.map((turn) => turn.input),
        ["John Doe", "Jane Roe", "LA, NYC"],
      );
      assert.deepEqual(scenario.finalState?.["NameStep"], { name: "Jane Roe" });
      const suite = await copy.testFlows(copy.scenarioFile("undone"));
      assert.equal(suite.code, 0, suite.stdout);
    });

    test("scenario:record refuses a taken name without --force, a bad name and an unknown flow, each with its code", async () => {
      const copy = copyOf();
      const taken = await record(copy, "John Wick\\n/save taken\\n/save taken\\n/save Bad_Name\\n/quit\\n");
      assert.equal(taken.code, 1);
      assert.match(
        taken.stderr,
        /scenario_exists: .*taken\.scenario\.json already exists; choose another name, or pass --force/,
      );
      assert.match(taken.stderr, /scenario_name_invalid: "Bad_Name"/);
      const forced = await record(copy, "John Wick\\n/save taken --force\\n/quit\\n");
      assert.equal(forced.code, 0, forced.stderr);
      const unknown = await copy.run(process.execPath, ["src/cli/flowcheck.mjs", "record", "NoSuchFlow"]);
      assert.equal(unknown.code, 1);
      assert.match(unknown.stderr, /unknown_flow: There is no flow "NoSuchFlow"\. The flows are: BasicFlow\./);
    });

    test("with the live model scenario:record writes the cassette too, /undo asks the model nothing again, and the scenario replays with FLOW_MODEL=replay", async (t) => {
      const copy = copyOf();
      // A fake provider of the test's own: its requests are this conversation's alone.
      const fake = await startFakeOpenAI(Object.values(basicFlowScripts));
      t.after(() => fake.close());
      const live = {
        FLOW_MODEL: "live",
        OPENAI_API_KEY: "sk-test",
        OPENAI_BASE_URL: fake.baseURL,
        OPENAI_MAX_RETRIES: "0",
        OPENAI_TIMEOUT_MS: "5000",
      };
      const run = await record(copy, "John Wick\\nLA, NYC\\n/undo\\nLA, NYC\\n/save live-check\\n/quit\\n", live);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /talking to BasicFlow \(live model\)/);
      const cassette = JSON.parse(
        readFileSync(join(copy.path, cassettePathOf(copy.scenarioFile("live-check"))), "utf8"),
      ) as CassetteFile;
      const second = cassette.calls.filter((call) => call.turn === 2).length;
      assert.ok(second > 0);
      // Turn 1 once, turn 2 twice (before and after /undo): neither the rewind nor /save asked the model.
      assert.equal(fake.requests.length, cassette.calls.length + second);
      const suite = await copy.testFlows(copy.scenarioFile("live-check"), { FLOW_MODEL: "replay" });
      assert.equal(suite.code, 0, suite.stdout);
      assert.match(suite.stdout, /^# fail 0$/m);
    });
  });
});
