import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, test, type TestContext } from "node:test";
import type { StrengthResults } from "../../src/testing/strength/strength-results.ts";
import { runFlowcheck } from "../support/child-run.ts";
import { DROP_NAME } from "../support/drop-name-mutant.ts";
import { tempDir } from "../support/temp-path.ts";

const FIXTURES = resolve(import.meta.dirname, "..", "fixtures");
const BASIC_FLOW_ENTRY = join(FIXTURES, "flows", "basic", "basic-flow-entry.ts");

/**
 * A project on flowcheck's engine in a temp folder, removed after the test: its flows module
 * registers the fixture BasicFlow, and scenarios/ holds the strength fixtures `scenarios` and a
 * scenario of a flow served elsewhere.
 */
async function project(t: TestContext, scenarios: readonly string[], strength?: unknown): Promise<string> {
  const dir = await tempDir("strength-command");
  t.after(dir.remove);
  mkdirSync(join(dir.path, "scenarios", "team"), { recursive: true });
  writeFileSync(
    join(dir.path, "flows.ts"),
    `import { basicFlowEntry } from ${JSON.stringify(BASIC_FLOW_ENTRY)};\nexport const registeredFlows = [basicFlowEntry];\n`,
  );
  writeFileSync(join(dir.path, "flowcheck.config.json"), JSON.stringify({ flows: "./flows.ts", strength }));
  for (const name of scenarios) {
    const file = `${name}.scenario.json`;
    const { $schema: _, ...scenario } = JSON.parse(readFileSync(join(FIXTURES, "strength", file), "utf8"));
    writeFileSync(join(dir.path, "scenarios", "team", file), JSON.stringify(scenario));
  }
  writeFileSync(
    join(dir.path, "scenarios", "elsewhere.scenario.json"),
    JSON.stringify({ flowName: "OtherFlow", target: "staging", turns: [{ label: "hi", input: "hi" }] }),
  );
  return dir.path;
}

function resultsOf(cwd: string): StrengthResults {
  return JSON.parse(readFileSync(join(cwd, "test", ".tmp", "strength-results.json"), "utf8")) as StrengthResults;
}

describe("flowcheck strength", { concurrency: 4 }, () => {
  test("a path that does not exist, or a scenario under another name, stops the run before anything is measured", async (t) => {
    const cwd = await project(t, ["basic-flow-steps-only"]);
    const missing = await runFlowcheck(["strength", "scenarios/tema"], {}, undefined, cwd);
    assert.equal(missing.code, 2, missing.stdout);
    assert.equal(missing.stderr.trim(), "flowcheck strength: scenarios/tema: no such file or folder.");
    writeFileSync(
      join(cwd, "scenarios", "team", "misnamed.json"),
      JSON.stringify({ flowName: "BasicFlow", turns: [{ label: "hi", input: "hi" }] }),
    );
    const misnamed = await runFlowcheck(["strength"], {}, undefined, cwd);
    assert.equal(misnamed.code, 1, misnamed.stdout);
    assert.match(
      misnamed.stderr,
      /scenarios\/team\/misnamed\.json looks like a scenario but is not named \*\.scenario\.json/,
    );
  });

  test("prints each flow's score and the survivors with the expectation that would catch them, writes their verdicts, and exits 0", async (t) => {
    const cwd = await project(t, ["basic-flow-steps-only", "basic-flow-wrong-step"]);
    const run = await runFlowcheck(["strength"], {}, undefined, cwd);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /^BasicFlow: 0\.\d\d \(\d+ killed, 0 timed out, \d+ survived, \d+ equivalent/m);
    assert.match(run.stdout, new RegExp(`^survived ${DROP_NAME.id}$`, "m"));
    assert.match(
      run.stdout,
      /^ {2}team\/basic-flow-steps-only turn 1 'name accepted': .* — add "expectState": \{ "NameStep": \{ "name": "Ada Lovelace" \} \}$/m,
    );
    assert.match(run.stdout, /^left out, failing unmutated: team\/basic-flow-wrong-step: turn 1/m);
    assert.match(
      run.stdout,
      /^not measurable: scenarios\/elsewhere\.scenario\.json: flow OtherFlow \(it names target staging\) is not one the project registers/m,
    );
    assert.match(run.stdout, /^results: test\/\.tmp\/strength-results\.json \(\d+\.\d s; /m);
    const results = resultsOf(cwd);
    const dropName = results.mutants.find((mutant) => mutant.id === DROP_NAME.id);
    assert.equal(dropName?.verdict, "survived");
    assert.ok(dropName.verdict === "survived" && dropName.differences[0]?.turn === 1);
    assert.ok(results.mutants.some((mutant) => mutant.verdict === "killed" && mutant.by === "check"));
    const basic = results.scores.find((flow) => flow.flow === "BasicFlow")!;
    assert.equal(
      basic.survived,
      results.mutants.filter((mutant) => mutant.flow === "BasicFlow" && mutant.verdict === "survived").length,
    );
    assert.deepEqual(results.scenarios, ["team/basic-flow-steps-only"]);
    assert.deepEqual(
      results.failing.map((failing) => failing.scenario),
      ["team/basic-flow-wrong-step"],
    );
    assert.deepEqual(
      results.notMeasurable.map((each) => each.file),
      ["scenarios/elsewhere.scenario.json"],
    );
    assert.ok(results.millis >= 0);
  });

  test("FLOW_STRENGTH_MIN fails the run naming the flows below it and their scores", async (t) => {
    const cwd = await project(t, ["basic-flow-steps-only"]);
    const run = await runFlowcheck(["strength"], { FLOW_STRENGTH_MIN: "0.9" }, undefined, cwd);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const [line] = run.stdout.match(/^below FLOW_STRENGTH_MIN=0\.9: .*$/m) ?? [];
    assert.match(line ?? "", /: BasicFlow 0\.\d\d(, |$)/);
  });

  test("a live model is refused in one line, nothing played", async (t) => {
    const cwd = await project(t, ["basic-flow-steps-only"]);
    const run = await runFlowcheck(["strength"], { FLOW_MODEL: "live", OPENAI_API_KEY: "sk-test" }, undefined, cwd);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^flowcheck: strength_refused: FLOW_MODEL runs with the live model: [^\n]*\n$/);
    assert.equal(run.stdout, "");
  });

  test("a mutant marked equivalent in flowcheck.config.json is reported with its reason and not counted", async (t) => {
    const reason = "the name is greeted, never read back";
    const cwd = await project(t, ["basic-flow-steps-only"], { equivalent: { [DROP_NAME.id]: reason } });
    const run = await runFlowcheck(["strength"], {}, undefined, cwd);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(
      run.stdout,
      new RegExp(`^equivalent ${DROP_NAME.id}: ${reason} \\(marked in flowcheck.config.json, not counted\\)$`, "m"),
    );
    assert.doesNotMatch(run.stdout, new RegExp(`^survived ${DROP_NAME.id}$`, "m"));
    const results = resultsOf(cwd);
    assert.deepEqual(
      results.mutants.find((mutant) => mutant.id === DROP_NAME.id),
      { id: DROP_NAME.id, flow: "BasicFlow", step: "NameStep", change: "drop-write", verdict: "equivalent", reason },
    );
    const basic = results.scores.find((flow) => flow.flow === "BasicFlow")!;
    const survivors = results.mutants.filter((mutant) => mutant.flow === "BasicFlow" && mutant.verdict === "survived");
    assert.equal(basic.survived, survivors.length);
    assert.equal(basic.score, basic.killed / (basic.killed + basic.survived));
  });

  test("a marked id no mutant has fails the run, naming it and the closest id", async (t) => {
    const typo = "BasicFlow/NameStep/save_name: drop state.nam";
    const cwd = await project(t, ["basic-flow-steps-only"], { equivalent: { [typo]: "a typo" } });
    const run = await runFlowcheck(["strength"], {}, undefined, cwd);
    assert.equal(run.code, 1);
    assert.match(
      run.stderr,
      /^flowcheck: strength_marked_unknown: flowcheck\.config\.json marks as equivalent "BasicFlow\/NameStep\/save_name: drop state\.nam" \(did you mean "BasicFlow\/NameStep\/save_name: drop state\.name"\?\), but no mutant/,
    );
  });

  test("an unknown key under strength is refused with the key it likely meant", async (t) => {
    const cwd = await project(t, [], { equivalnt: {} });
    const run = await runFlowcheck(["strength"], {}, undefined, cwd);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /equivalnt.*equivalent/);
  });

  test("an option it does not take is a bad command line", async () => {
    const run = await runFlowcheck(["strength", "--fast"]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /Usage: flowcheck strength/);
  });
});
