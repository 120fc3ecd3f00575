import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test, type TestContext } from "node:test";
import { basicFlowProject } from "../support/basic-flow-project.ts";
import { runFlowcheck } from "../support/child-run.ts";

// The failing turn is on line 4 of its file, where GitHub is to mark it.
const WICK = `{
  "flowName": "BasicFlow",
  "turns": [
    { "label": "name accepted", "input": "John Wick", "expectedActiveStep": "WeatherStep", "responseMustInclude": ["100%"] }
  ]
}
`;

/** A BasicFlow project whose scenario fails its first turn, beside one that is not a valid scenario; removed after the test. */
async function failingProject(t: TestContext): Promise<string> {
  const project = await basicFlowProject(
    { "broken.scenario.json": { flowName: "BasicFlow", turns: [{ label: "hi", input: "hi" }] } },
    false,
  );
  t.after(project.remove);
  writeFileSync(join(project.path, "scenarios", "wick.scenario.json"), WICK);
  return project.path;
}

const ANNOTATIONS = [
  "::error file=scenarios/broken.scenario.json,line=1,title=scenarios/broken.scenario.json did not run::" +
    "the file does not load: scenarios/broken.scenario.json is not a valid scenario (1 problem); no turn was run:%0A" +
    `- turns[0].expectedActiveStep (turn "hi"): missing; every answered turn must say which step the session is on after it.`,
  "::error file=scenarios/wick.scenario.json,line=4,title=BasicFlow%3A wick · turn 1 'name accepted'::" +
    `turn 1 'name accepted': the response lacks "100%25"; response: "Nice to meet you, John Wick. Which two cities should I check? Give two aliases, like LA, NYC."`,
];

describe("flowcheck test on GitHub's runner", { concurrency: 2 }, () => {
  test("with GITHUB_ACTIONS=true a failing turn is annotated on its scenario's line, and the run's summary is appended to GITHUB_STEP_SUMMARY", async (t) => {
    const cwd = await failingProject(t);
    const summary = join(cwd, "step-summary.md");
    writeFileSync(summary, "earlier step\n");
    const run = await runFlowcheck(
      ["test", "scenarios"],
      { GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: summary },
      undefined,
      cwd,
    );
    const output = run.stdout + run.stderr;
    assert.equal(run.code, 1, output);
    assert.deepEqual(
      run.stdout.split("\n").filter((line) => line.startsWith("::")),
      ANNOTATIONS,
      output,
    );
    const written = readFileSync(summary, "utf8");
    assert.ok(written.startsWith("earlier step\n## flowcheck: 2 of 2 conversations failed\n"), written);
    const failed = written.slice(written.indexOf("### Failed\n")).split("\n");
    assert.match(failed[2]!, /^- `scenarios\/broken\.scenario\.json#broken`: the file does not load: /, written);
    assert.match(
      failed[3]!,
      /^- `scenarios\/wick\.scenario\.json#wick` \(scenarios\/wick\.scenario\.json:4\): turn 1 'name accepted': the response lacks "100%"/,
      written,
    );
  });

  test("without GITHUB_ACTIONS nothing is annotated and without GITHUB_STEP_SUMMARY no summary is written", async (t) => {
    const cwd = await failingProject(t);
    const run = await runFlowcheck(["test", "scenarios"], {}, undefined, cwd);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.doesNotMatch(run.stdout, /^::/m);
    assert.match(run.stdout, /^2 conversations: 0 passed, 2 failed/m, "the run did play the failing scenario");
    assert.equal(existsSync(join(cwd, "step-summary.md")), false);
  });
});
