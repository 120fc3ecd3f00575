import assert from "node:assert/strict";
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test, type TestContext } from "node:test";
import type { ConversationResult, RunResults } from "../../src/testing/report/run-results.ts";
import { fixtureScenario } from "../support/fixture-scenario.ts";
import { tempDir } from "../support/temp-path.ts";
import { wellFormedXml } from "../support/well-formed-xml.ts";
import { ROOT, type ChildRun, runFlowcheck } from "../support/child-run.ts";

// A project of the test's own, run by flowcheck test in child processes in its folder: BasicFlow's
// fixture scenarios as a passing, a failing, a skipped (live-only) conversation and a file that
// does not load, a unit spec and a spec that does not import.

/** The project of the first run, whose results the later tests read. */
let first: { path: string; remove(): void };
let dir: string;
/** The unsharded run, red. */
let whole: { child: ChildRun; results: RunResults };

function runSpecs(dir: string, ...args: string[]): Promise<ChildRun> {
  return runFlowcheck(["test", ...args], {}, undefined, dir);
}

function resultsMerge(dir: string, ...args: string[]): Promise<ChildRun> {
  return runFlowcheck(["merge", ...args], {}, undefined, dir);
}

/** The run's results, copied to `<name>.json` so that the next run in the folder does not overwrite them. */
function keep(dir: string, name: string): RunResults {
  const file = join(dir, `${name}.json`);
  copyFileSync(join(dir, "test", ".tmp", "run-results.json"), file);
  return JSON.parse(readFileSync(file, "utf8")) as RunResults;
}

function conversation(results: RunResults, name: string): ConversationResult {
  const found = results.conversations.find((each) => each.name === name);
  assert.ok(found, `no conversation ${name}; there are ${results.conversations.map((each) => each.name).join(", ")}`);
  return found;
}

/** The project in a new folder: each test that runs it has its own. */
async function project(): Promise<{ path: string; remove(): void }> {
  const folder = await tempDir("run-results");
  const scenarios = join(folder.path, "journeys");
  const specs = join(folder.path, "specs");
  mkdirSync(scenarios);
  mkdirSync(specs);
  const basic = JSON.parse(readFileSync(fixtureScenario("basic-flow"), "utf8")) as {
    turns: Record<string, unknown>[];
  } & Record<string, unknown>;
  delete basic["$schema"];
  writeFileSync(join(scenarios, "pass.scenario.json"), JSON.stringify(basic));
  const [first, second] = basic.turns;
  writeFileSync(
    join(scenarios, "fail.scenario.json"),
    JSON.stringify({
      flowName: "BasicFlow",
      turns: [{ ...first, expectedActiveStep: "WeatherStep", expectedResponse: undefined }, second],
    }),
  );
  writeFileSync(
    join(scenarios, "live.scenario.json"),
    JSON.stringify({ flowName: "BasicFlow", tags: ["live-only"], turns: [first] }),
  );
  writeFileSync(join(scenarios, "invalid.scenario.json"), JSON.stringify({ flowName: "BasicFlow", turns: "none" }));
  // A clock pin that is no instant: the target does not start.
  writeFileSync(
    join(scenarios, "nostart.scenario.json"),
    JSON.stringify({ flowName: "BasicFlow", env: { BASIC_FLOW_CURRENT_DATE: "next tuesday" }, turns: [first] }),
  );
  const from = (path: string) => JSON.stringify(join(ROOT, path));
  writeFileSync(
    join(specs, "basic-flow.spec.ts"),
    `import { describeFlowScenarios } from ${from("src/testing/index.ts")};\nimport { basicFlowEntry } from ${from("test/fixtures/flows/index.ts")};\n` +
      `describeFlowScenarios("BasicFlow", { flows: [basicFlowEntry], dir: "journeys" });\n`,
  );
  writeFileSync(join(specs, "unit.spec.ts"), `import { test } from "node:test";\ntest("a unit spec", () => {});\n`);
  writeFileSync(join(specs, "broken.spec.ts"), `throw new Error("broken <on> purpose & more");\n`);
  return folder;
}

/** The project in a folder of `t`'s own, removed after it. */
async function projectOf(t: TestContext): Promise<string> {
  const folder = await project();
  t.after(folder.remove);
  return folder.path;
}

// The runs that write results have a project folder each, and the first run's is only read after it, so the tests run side by side.
describe("flowcheck test's results of a project's run", { concurrency: 2 }, () => {
  before(async () => {
    first = await project();
    dir = first.path;
    const child = await runSpecs(dir, "specs");
    whole = { child, results: keep(dir, "whole") };
  });

  after(() => first.remove());

  test("a red run writes test/.tmp/run-results.json with every conversation: passed, failed, a skipped suite, a file that does not load, a target that does not start, a spec that does not import", () => {
    const { child, results } = whole;
    assert.equal(child.code, 1, child.stdout + child.stderr);
    assert.match(child.stdout, /^5 conversations: 1 passed, 3 failed, 1 skipped; turns 6 passed, 1 failed, 3 skipped/m);
    assert.match(child.stdout, /^results: test\/\.tmp\/run-results\.json\b.*\nreport: {2}test\/\.tmp\/report\.html$/m);
    assert.equal(results.results, 1);
    assert.ok(Date.parse(results.startedAt) <= Date.parse(results.endedAt));
    assert.deepEqual(
      results.conversations.map((each) => [each.name, each.outcome, each.ran]),
      [
        ["fail", "failed", true],
        ["invalid", "failed", false],
        ["live", "skipped", false],
        ["nostart", "failed", false],
        ["pass", "passed", true],
      ],
    );
    const failed = conversation(results, "fail");
    assert.equal(failed.kind, "contract");
    assert.match(failed.reason!, /^turn 1 'name rejected': expected active step WeatherStep, stored NameStep/);
    assert.deepEqual(
      failed.turns.map((turn) => [turn.outcome, turn.skipReason]),
      [
        ["failed", undefined],
        ["skipped", "turn 1 failed"],
      ],
    );
    assert.deepEqual(
      failed.turns[0]!.checks.find((check) => check.name === "expectedActiveStep"),
      {
        contract: "persisted",
        name: "expectedActiveStep",
        outcome: "failed",
        message: "expected active step WeatherStep, stored NameStep (runStatus running)",
        expected: "WeatherStep",
        actual: "NameStep",
      },
    );
    assert.match(
      conversation(results, "invalid").reason!,
      /^the file does not load: journeys\/invalid\.scenario\.json is not a valid scenario[^]*turns: "none" is a string/,
    );
    const live = conversation(results, "live");
    assert.match(live.reason!, /^live-only scenario: BasicFlow would run on its scripted model/);
    assert.deepEqual(
      live.turns.map((turn) => [turn.label, turn.outcome, turn.skipReason]),
      [["name rejected", "skipped", live.reason]],
    );
    const nostart = conversation(results, "nostart");
    assert.match(nostart.reason!, /^the target did not start: .*BASIC_FLOW_CURRENT_DATE/);
    assert.deepEqual(
      nostart.turns.map((turn) => [turn.outcome, turn.skipReason]),
      [["skipped", nostart.reason]],
    );
    assert.equal(results.specsNotLoaded.length, 1);
    assert.match(results.specsNotLoaded[0]!.file, /broken\.spec\.ts$/);
    assert.equal(results.specsNotLoaded[0]!.message, "broken <on> purpose & more");
    assert.equal(existsSync(join(dir, "test", ".tmp", "results")), false, "the parts are removed once merged");
  });

  test("each played turn carries its input, answer and content type, stored step and status, judge, duration, and tokens totalled per conversation", () => {
    const pass = conversation(whole.results, "pass");
    const fourth = pass.turns[3]!;
    assert.equal(fourth.input, "1600 SW Murray Blvd, Beaverton, OR 9700");
    assert.match(fourth.answer!.text, /9700/);
    assert.match(fourth.answer!.contentType!, /^text\/event-stream/);
    assert.deepEqual(fourth.stored, { step: "AddressStep", runStatus: "running", turns: 4 });
    assert.equal(fourth.judge?.outcome, "skipped");
    assert.match(fourth.judge!.message!, /no OPENAI_API_KEY is set/);
    assert.ok(typeof fourth.millis?.http === "number");
    assert.deepEqual(pass.tokens, { model: { input: 0, output: 0 }, judge: { input: 0, output: 0 } });
    assert.equal(pass.final?.outcome, "passed");
    assert.equal(whole.results.models["BasicFlow"], "scripted");
    assert.deepEqual(whole.results.totals.judge, {
      graded: 0,
      passed: 0,
      failed: 0,
      skipped: 5,
      passRate: null,
      unstable: 0,
    });
  });

  test("each turn's result says what it changed in the stored session: step, run status, state keys, execution entries, nested runs", () => {
    const turns = conversation(whole.results, "pass").turns;
    assert.deepEqual(turns[0]!.changed, {
      step: { from: null, to: "NameStep" },
      runStatus: { from: null, to: "running" },
      execution: [{ seq: 1, turn: 1, step: "NameStep", kind: "tool", name: "save_name", outcome: "stay" }],
    });
    assert.deepEqual(turns[1]!.changed?.state, { NameStep: { added: { name: "John Wick" } } });
    assert.deepEqual(turns[1]!.changed?.step, { from: "NameStep", to: "WeatherStep" });
    assert.deepEqual(turns[3]!.changed?.children, [
      { flow: "AddressCheck", parentStep: "AddressStep", runStatus: "running", currentStep: "NormalizeAddressStep" },
    ]);
    assert.deepEqual(
      turns[3]!.changed?.execution?.map((entry) => `${entry.kind} ${entry.name} ${entry.outcome}`),
      ["child AddressCheck running", "tool check_address stay"],
    );
    assert.deepEqual(turns[4]!.changed?.runStatus, { from: "running", to: "completed" });
    assert.deepEqual(turns[5]!.changed, {}, "the refused turn changed nothing");
  });

  test("--repeat 2 writes each repeat as a conversation of its own, numbered", async (t) => {
    const own = await projectOf(t);
    const child = await runSpecs(own, "specs", join("journeys", "pass.scenario.json"), "--repeat", "2");
    assert.equal(child.code, 0, child.stdout + child.stderr);
    const results = keep(own, "repeated");
    assert.deepEqual(
      results.conversations.map((each) => [each.id, each.repeat, each.outcome]),
      [
        [`${join("journeys", "pass.scenario.json")}#pass@1`, { index: 1, of: 2 }, "passed"],
        [`${join("journeys", "pass.scenario.json")}#pass@2`, { index: 2, of: 2 }, "passed"],
      ],
    );
    assert.equal(results.totals.turns.passed, 12);
  });

  test("two shards' results, merged by npm run results:merge, have the unsharded run's conversations and totals; the same shard twice is refused", async (t) => {
    const own = await projectOf(t);
    const unsharded = await runSpecs(own, "specs", "journeys");
    assert.equal(unsharded.code, 1, unsharded.stderr);
    const one = keep(own, "unsharded");
    assert.deepEqual(one.totals, whole.results.totals, "the same conversations as the run of every spec");
    const shards: RunResults[] = [];
    for (const index of [1, 2]) {
      const child = await runSpecs(own, "specs", "journeys", `--test-shard=${index}/2`);
      assert.ok(child.code === 0 || child.code === 1, child.stderr);
      shards.push(keep(own, `shard-${index}`));
    }
    assert.deepEqual(
      shards.map((shard) => shard.conversations.map((each) => each.name)),
      [
        ["fail", "invalid"],
        ["live", "nostart", "pass"],
      ],
    );
    const merged = await resultsMerge(
      own,
      "shard-1.json",
      "shard-2.json",
      "--out",
      "merged.json",
      "--junit",
      "junit.xml",
    );
    assert.equal(merged.code, 0, merged.stderr);
    assert.match(
      merged.stdout,
      /^merged 2 result files into merged\.json: 5 conversations: 1 passed, 3 failed, 1 skipped/m,
    );
    const results = JSON.parse(readFileSync(join(own, "merged.json"), "utf8")) as RunResults;
    assert.deepEqual(results.totals, one.totals);
    assert.deepEqual(results.shards, ["1/2", "2/2"]);
    const outcomes = (run: RunResults) =>
      run.conversations.map((each) => [each.id, each.outcome, each.turns.map((turn) => turn.outcome)]);
    assert.deepEqual(outcomes(results), outcomes(one));
    const junit = readFileSync(join(own, "junit.xml"), "utf8");
    assert.deepEqual(wellFormedXml(junit), []);
    assert.match(junit, /<testsuites name="flowcheck" tests="\d+" failures="3" /);
    const twice = await resultsMerge(own, "shard-1.json", "merged.json", "--out", "again.json");
    assert.equal(twice.code, 2);
    assert.match(
      twice.stderr,
      /#fail is in both shard-1\.json and merged\.json: the same shard given twice.*\(results_invalid\)/,
    );
    assert.equal(existsSync(join(own, "again.json")), false);
  });

  test("--test-shard that is not i/n with 1 ≤ i ≤ n is refused before any test runs", async () => {
    for (const shard of ["3/2", "0/2", "two"]) {
      const child = await runSpecs(dir, "specs", `--test-shard=${shard}`);
      assert.equal(child.code, 2);
      assert.match(
        child.stderr,
        new RegExp(`--test-shard takes i/n, shard i of n \\(1 ≤ i ≤ n\\), e\\.g\\. --test-shard=2/4; got ${shard}\\.`),
      );
    }
  });
});
