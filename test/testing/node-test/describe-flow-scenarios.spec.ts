import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { after, before, describe, test, type TestContext } from "node:test";
import { tempDir } from "../../support/temp-path.ts";
import { turnLocation } from "../../support/turn-location.ts";
import { result, ROOT, runNode, tapResults, type ChildRun, runFlowcheck } from "../../support/child-run.ts";

// describeFlowScenarios over a scenarios folder of the test's own, played by a real node:test
// child process on RelayFlow (test/support/relay-flow.ts), with ClockFlow as another registered flow.

const relayTurns = (label: string) => [
  { label: `${label} greets`, input: "hello", expectedActiveStep: "FarewellStep" },
  { label: `${label} ends`, input: "bye", expectedActiveStep: "FarewellStep", completed: true },
];

/** A folder of the test's own: its scenarios, the spec over them, and the runs of that spec. */
interface Project {
  dir: { path: string; remove(): void };
  scenarios: string;
  spec: string;
  /** `content` (JSON, or text as it is) as `path` under the scenarios folder. */
  writeJson(path: string, content: unknown): string;
  /** The spec, by node:test in a child process. */
  run(): Promise<ChildRun>;
  /** The spec narrowed to `paths`, as `npm run test:flows -- <paths>` narrows a run: through flowcheck test, in the project's folder. */
  runOn(paths: string[]): Promise<ChildRun>;
}

/** The scenarios (relay, team/deep/nested, clock) and the spec over them in a new folder, whose checks note into checks.txt. */
async function project(): Promise<Project> {
  const dir = await tempDir("describe-flow-scenarios");
  const scenarios = join(dir.path, "our-scenarios");
  const spec = join(dir.path, "relay-flow.spec.ts");
  const writeJson = (path: string, content: unknown): string => {
    const file = join(scenarios, path);
    mkdirSync(join(file, ".."), { recursive: true });
    writeFileSync(file, typeof content === "string" ? content : `${JSON.stringify(content, null, 2)}\n`);
    return file;
  };
  writeJson("relay.scenario.json", { flowName: "RelayFlow", tags: ["smoke"], turns: relayTurns("top") });
  writeJson("team/deep/nested.scenario.json", { flowName: "RelayFlow", turns: relayTurns("nested") });
  writeJson("clock.scenario.json", {
    flowName: "ClockFlow",
    turns: [{ label: "tick", input: "now?", expectedActiveStep: "ClockStep" }],
  });
  const from = (path: string) => JSON.stringify(join(ROOT, path));
  writeFileSync(
    spec,
    [
      `import { appendFileSync } from "node:fs";`,
      `import { describeFlowScenarios } from ${from("src/testing/index.ts")};`,
      `import { relayFlows } from ${from("test/support/relay-flow.ts")};`,
      `import { clockFlows } from ${from("test/support/clock-flow.ts")};`,
      `const note = (what: string) => () => appendFileSync(${JSON.stringify(join(dir.path, "checks.txt"))}, what + "\\n");`,
      `describeFlowScenarios("RelayFlow", {`,
      `  flows: [...relayFlows, ...clockFlows],`,
      `  dir: ${JSON.stringify(scenarios)},`,
      `  artifactsDir: ${JSON.stringify(join(dir.path, "artifacts"))},`,
      `  everyScenario: { eachTurn: note("every scenario's turn") },`,
      `  tags: { smoke: { domain: note("smoke") } },`,
      `  scenarios: { "team/deep/nested": { domain: note("nested") } },`,
      `});`,
      "",
    ].join("\n"),
  );
  return {
    dir,
    scenarios,
    spec,
    writeJson,
    run: () => runNode(["--import", "tsx", "--test", "--test-reporter=tap", spec]),
    runOn: (paths) => runFlowcheck(["test", spec, ...paths, "--test-reporter=tap"], {}, undefined, dir.path),
  };
}

/** A project of `t`'s own, removed after it. */
async function projectOf(t: TestContext): Promise<Project> {
  const made = await project();
  t.after(made.dir.remove);
  return made;
}

// Each group has a project of its own, so they run side by side.
describe("describeFlowScenarios over a scenarios folder", { concurrency: 2 }, () => {
  describe("a scenarios folder with valid files at any depth", () => {
    let own: Project;
    let child: ChildRun;
    before(async () => {
      own = await project();
      child = await own.run();
    });
    after(() => own.dir.remove());

    test("runs every file of the flow, nested ones too, each as a suite named by its path under the folder", () => {
      assert.equal(child.code, 0, child.stdout + child.stderr);
      const results = tapResults(child.stdout);
      for (const suite of ["RelayFlow: relay", "RelayFlow: team/deep/nested"])
        assert.equal(result(results, suite).ok, true, suite);
      assert.equal(result(results, "2. nested ends").ok, true);
    });

    test("leaves another registered flow's file to that flow's spec", () => {
      assert.doesNotMatch(child.stdout, /ClockFlow|clock\.scenario\.json/);
    });
  });

  describe("checks in code apply to the scenarios they are scoped to", () => {
    test("a scenario's checks run for it alone, a tag's for the tagged ones, everyScenario's for all", async (t) => {
      const { dir, run } = await projectOf(t);
      const notes = join(dir.path, "checks.txt");
      writeFileSync(notes, "");
      const child = await run();
      assert.equal(child.code, 0, child.stdout + child.stderr);
      const seen = readFileSync(notes, "utf8").trim().split("\n").sort();
      assert.deepEqual(seen, [
        "every scenario's turn",
        "every scenario's turn",
        "every scenario's turn",
        "every scenario's turn",
        "nested",
        "smoke",
      ]);
    });
  });

  describe("files that cannot run are failing tests that name them", () => {
    let own: Project;
    let child: ChildRun;
    const broken: string[] = [];
    before(async () => {
      own = await project();
      broken.push(own.writeJson("broken.scenario.json", '{ "flowName": "RelayFlow",\n'));
      broken.push(own.writeJson("team/typo.scenario.json", { flowName: "RelayFlo", turns: relayTurns("typo") }));
      broken.push(own.writeJson("team/notes.json", { flowName: "RelayFlow", turns: relayTurns("misnamed") }));
      own.writeJson("team/data.json", { rows: [1, 2, 3] });
      child = await own.run();
    });
    after(() => own.dir.remove());

    test("the run fails, and the valid scenarios still run", () => {
      assert.equal(child.code, 1, child.stdout);
      assert.equal(result(tapResults(child.stdout), "RelayFlow: relay").ok, true);
    });

    test("a file that is not JSON fails naming the file, the line and the column", () => {
      const found = result(tapResults(child.stdout), `${broken[0]} is a valid scenario`);
      assert.equal(found.ok, false);
      assert.match(
        found.error ?? "",
        /is not a valid scenario \(1 problem\); no turn was run:\n- the file is not valid JSON at line 2, column 1: /,
      );
    });

    test("a misspelled flowName fails naming the file and the flow it likely meant", () => {
      const found = result(tapResults(child.stdout), `${broken[1]} is a valid scenario`);
      assert.equal(found.ok, false);
      assert.match(found.error ?? "", /flowName: "RelayFlo" is not a registered flow; did you mean RelayFlow\?/);
    });

    test("a scenario-like JSON file without the .scenario.json suffix fails with the rename; other JSON is left alone", () => {
      const found = result(tapResults(child.stdout), `${broken[2]} is named as a scenario`);
      assert.equal(found.ok, false);
      assert.match(
        found.error ?? "",
        new RegExp(
          `rename it to ${broken[2]!.replace(/\.json$/, ".scenario.json").replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}\\.$`,
        ),
      );
      assert.doesNotMatch(child.stdout, /data\.json/);
    });

    test("the failures carry no assertion noise: no actual, expected or operator", () => {
      assert.doesNotMatch(child.stdout, /operator: 'fail'|actual: undefined|expected: undefined/);
    });
  });

  test("scenario paths given to the run narrow it to the files and folders they name", async (t) => {
    const { scenarios, runOn } = await projectOf(t);
    const child = await runOn([join(scenarios, "team")]);
    assert.equal(child.code, 0, child.stdout + child.stderr);
    const results = tapResults(child.stdout);
    assert.equal(result(results, "RelayFlow: team/deep/nested").ok, true);
    assert.equal(results.has("RelayFlow: relay"), false, "relay.scenario.json is outside the folder named");
  });

  test("a failing turn's message starts at the scenario file and the line of that turn", async (t) => {
    const { dir, writeJson, runOn } = await projectOf(t);
    const file = writeJson("wrong/step.scenario.json", {
      flowName: "RelayFlow",
      turns: [
        { label: "greets", input: "hello", expectedActiveStep: "FarewellStep" },
        { label: "wrong step", input: "bye", expectedActiveStep: "GreetStep" },
      ],
    });
    const child = await runOn([file]);
    assert.equal(child.code, 1, child.stdout);
    const found = result(tapResults(child.stdout), "2. wrong step");
    assert.equal(found.ok, false);
    const [first] = (found.error ?? "").split("\n");
    assert.equal(turnLocation(file, "wrong step", dir.path), `${relative(dir.path, file)}:10`);
    assert.match(
      first!,
      new RegExp(
        `^${turnLocation(file, "wrong step", dir.path).replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}: turn 2 'wrong step': expected active step GreetStep, stored FarewellStep`,
      ),
    );
    assert.match(child.stdout, /name: 'ScenarioFailure'/);
    assert.doesNotMatch(child.stdout, /operator: 'fail'/);
  });

  test("checks for a scenario name or a tag that no file of the flow has fail, naming the names there are", async (t) => {
    const { dir, scenarios } = await projectOf(t);
    const other = join(dir.path, "stale.spec.ts");
    writeFileSync(
      other,
      [
        `import { describeFlowScenarios } from ${JSON.stringify(join(ROOT, "src/testing/index.ts"))};`,
        `import { relayFlows } from ${JSON.stringify(join(ROOT, "test/support/relay-flow.ts"))};`,
        `describeFlowScenarios("RelayFlow", { flows: relayFlows, dir: ${JSON.stringify(scenarios)}, artifactsDir: ${JSON.stringify(join(dir.path, "artifacts"))}, scenarios: { "renamed-away": { domain: () => {} } }, tags: { nightly: { domain: () => {} } } });`,
        "",
      ].join("\n"),
    );
    const child = await runNode(["--import", "tsx", "--test", "--test-reporter=tap", other]);
    assert.equal(child.code, 1, child.stdout);
    const results = tapResults(child.stdout);
    assert.equal(result(results, 'RelayFlow: the checks for "renamed-away" have a scenario').ok, false);
    assert.equal(result(results, 'RelayFlow: the checks for the tag "nightly" have a scenario').ok, false);
    assert.match(
      child.stdout,
      /no RelayFlow scenario file under .* has that name; the names are relay, team\/deep\/nested\. Rename the key/,
    );
    assert.match(child.stdout, /no RelayFlow scenario under .* carries it; the tags are smoke\./);
  });

  test("given the flow's definition, files and repeat: those files alone, played that many times, one of another flow failing by name", async (t) => {
    const { dir, scenarios } = await projectOf(t);
    const other = join(dir.path, "files.spec.ts");
    const from = (path: string) => JSON.stringify(join(ROOT, path));
    writeFileSync(
      other,
      [
        `import assert from "node:assert/strict";`,
        `import { describeFlowScenarios, stepState } from ${from("src/testing/index.ts")};`,
        `import { RelayFlow, relayFlows } from ${from("test/support/relay-flow.ts")};`,
        `import { clockFlows } from ${from("test/support/clock-flow.ts")};`,
        `describeFlowScenarios(RelayFlow, {`,
        `  flows: [...relayFlows, ...clockFlows],`,
        `  dir: ${JSON.stringify(scenarios)},`,
        `  artifactsDir: ${JSON.stringify(join(dir.path, "artifacts"))},`,
        `  files: [${JSON.stringify(join(scenarios, "relay.scenario.json"))}, ${JSON.stringify(join(scenarios, "clock.scenario.json"))}],`,
        `  repeat: 2,`,
        `  scenarios: { relay: { domain: (document) => assert.deepEqual(stepState(document, "GreetStep"), {}) } },`,
        `});`,
        "",
      ].join("\n"),
    );
    const child = await runNode(["--import", "tsx", "--test", "--test-reporter=tap", other]);
    assert.equal(child.code, 1, child.stdout);
    const results = tapResults(child.stdout);
    assert.equal(result(results, "RelayFlow: relay × 2").ok, true, child.stdout);
    assert.match(child.stdout, /# turn 2 'top ends': passed 2 of 2 runs \(100%\)/);
    assert.match(child.stdout, /# the final state: passed 2 of 2 runs \(100%\)/);
    assert.equal(result(results, `${join(scenarios, "clock.scenario.json")} is a scenario of RelayFlow`).ok, false);
    assert.doesNotMatch(child.stdout, /team\/deep\/nested/, "files leaves the folder's other files out");
  });

  test("repeat above 1 under FLOW_MODEL=record is one failing test instead of runs that would each write the same cassette", async (t) => {
    const { dir, scenarios } = await projectOf(t);
    const other = join(dir.path, "record.spec.ts");
    const from = (path: string) => JSON.stringify(join(ROOT, path));
    writeFileSync(
      other,
      [
        `import { describeFlowScenarios } from ${from("src/testing/index.ts")};`,
        `import { RelayFlow, relayFlows } from ${from("test/support/relay-flow.ts")};`,
        `describeFlowScenarios(RelayFlow, { flows: relayFlows, dir: ${JSON.stringify(scenarios)}, files: [${JSON.stringify(join(scenarios, "relay.scenario.json"))}], repeat: 2, artifactsDir: ${JSON.stringify(join(dir.path, "artifacts"))} });`,
        "",
      ].join("\n"),
    );
    // A key and a loopback provider that is never reached: the suite is refused before any target starts.
    const child = await runNode(["--import", "tsx", "--test", "--test-reporter=tap", other], {
      FLOW_MODEL: "record",
      OPENAI_API_KEY: "sk-test",
      OPENAI_BASE_URL: "http://127.0.0.1:9",
    });
    assert.equal(child.code, 1, child.stdout);
    const refused = result(tapResults(child.stdout), "RelayFlow: relay × 2 is recorded once");
    assert.equal(refused.ok, false);
    assert.match(
      refused.error ?? "",
      /repeat: 2 would write it 2 times\. Record once, then repeat with FLOW_MODEL=live or replay\./,
    );
  });
});
