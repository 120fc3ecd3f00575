import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import type { Scenario } from "../../../src/testing/index.ts";
import { runFlowSuite } from "../../support/run-flow-suite.ts";
import { runCommand, runNode } from "../../testing/live/child-run.ts";
import { tempDir } from "../../support/temp-path.ts";

const SUITE = "test/flows/basic-flow.spec.ts";
let dir: Awaited<ReturnType<typeof tempDir>>;

before(async () => (dir = await tempDir("scenario-record")));
after(() => dir.remove());

/** `printf '<lines>' | npm run -s scenario:record -- BasicFlow --dir <temp>`, as a person pipes a conversation in. */
const record = (lines: string) => runCommand("sh", ["-c", `printf '${lines}' | npm run -s scenario:record -- BasicFlow --dir "$DIR"`], { DIR: dir.path });
const read = (name: string) => JSON.parse(readFileSync(join(dir.path, `${name}.scenario.json`), "utf8")) as Scenario;

test("a conversation piped into scenario:record shows each answer's step, run status and state change, and /save writes a scenario the BasicFlow suite passes", async () => {
  const run = await record("John Wick\\nLA, NYC\\n/save tea-check\\n/quit\\n");
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /step WeatherStep · running\n {2}NameStep\.name = "John Wick"/);
  assert.match(run.stdout, /step WeatherStep → AddressStep · running\n {2}WeatherStep\.city_LA = 72/);
  const file = join(dir.path, "tea-check.scenario.json");
  assert.match(run.stdout, new RegExp(`wrote ${file.replaceAll(/[.*+?^${}()|[\]\\/]/g, "\\$&")} \\(2 turns\\)`));
  assert.deepEqual(read("tea-check").turns.map((turn) => [turn.input, turn.expectedActiveStep]), [["John Wick", "WeatherStep"], ["LA, NYC", "AddressStep"]]);
  const suite = await runFlowSuite(SUITE, [file]);
  assert.equal(suite.code, 0, suite.stdout);
  assert.match(suite.stdout, /^# fail 0$/m);
  assert.match(suite.stdout, /tea-check/);
});

test("a recorded scenario whose written expectation is changed fails the suite", async () => {
  const run = await record("John Wick\\nLA, NYC\\n/save changed\\n/quit\\n");
  assert.equal(run.code, 0, run.stderr);
  const scenario = read("changed");
  scenario.turns[1]!.expectState = { WeatherStep: { city_LA: 73 } };
  const file = join(dir.path, "changed.scenario.json");
  writeFileSync(file, JSON.stringify(scenario));
  const suite = await runFlowSuite(SUITE, [file]);
  assert.notEqual(suite.code, 0);
  assert.match(suite.stdout, /city_LA/);
});

test("/undo drops the last turn and rewinds the session, so the conversation goes on from the turn before", async () => {
  const run = await record("John Doe\\nJohn Wick\\n/undo\\nJane Roe\\nLA, NYC\\n/save undone\\n/quit\\n");
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /dropped "John Wick"; 1 turns kept/);
  const scenario = read("undone");
  assert.deepEqual(scenario.turns.map((turn) => turn.input), ["John Doe", "Jane Roe", "LA, NYC"]);
  assert.deepEqual(scenario.finalState?.["NameStep"], { name: "Jane Roe" });
  const suite = await runFlowSuite(SUITE, [join(dir.path, "undone.scenario.json")]);
  assert.equal(suite.code, 0, suite.stdout);
});

test("scenario:record refuses a taken name without --force, a bad name and an unknown flow, each with its code", async () => {
  const taken = await record("John Wick\\n/save taken\\n/save taken\\n/save Bad_Name\\n/quit\\n");
  assert.equal(taken.code, 1);
  assert.match(taken.stderr, /scenario_exists: .*taken\.scenario\.json already exists; choose another name, or pass --force/);
  assert.match(taken.stderr, /scenario_name_invalid: "Bad_Name"/);
  const forced = await record("John Wick\\n/save taken --force\\n/quit\\n");
  assert.equal(forced.code, 0, forced.stderr);
  const unknown = await runNode(["--import", "tsx", "src/cli/scenario-record.ts", "NoSuchFlow", "--dir", dir.path]);
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /unknown_flow: There is no flow "NoSuchFlow"\. The flows are: BasicFlow/);
});

test("scenario:record and scenario:from-session answer --help with their usage", async () => {
  for (const [command, usage] of [["scenario-record.ts", /^Usage: npm run scenario:record -- <FlowName>/], ["scenario-from-session.ts", /^Usage: npm run scenario:from-session -- <session id>/]] as const) {
    const run = await runNode(["--import", "tsx", `src/cli/${command}`, "--help"]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, usage);
  }
});
