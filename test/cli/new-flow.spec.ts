import assert from "node:assert/strict";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { after, before, describe, test } from "node:test";
import { LONGEST_FLOW_NAME } from "../../src/cli/new-flow/flow-name.ts";
import type { FlowChecklist } from "../../src/testing/checklist/checklist.ts";
import type { RunResults } from "../../src/testing/report/run-results.ts";
import { biome, checkedFiles, unformattedFiles } from "../support/biome.ts";
import { repositoryCopy, type RepositoryCopy } from "../support/repository-copy.ts";
import { tempDir } from "../support/temp-path.ts";
import type { ChildRun } from "../support/child-run.ts";

// new:flow KettleFlow in a copy of the repository with the demo flows and the team's own unregistered
// (as the README's "Your own flows, without the demos" does; a checkout without them works the same),
// then the scaffolded flow's suite and typecheck run there: the real src/flows is never written.

const SCENARIO = join("scenarios", "kettle-flow.scenario.json");
/** The copy the refusals and the dry run leave as it was. */
let copy: RepositoryCopy;
/** The copy KettleFlow is scaffolded into, then typechecked and played, one test after another. */
let scaffolded: RepositoryCopy;
let scratch: { path: string; remove(): void };

before(async () => {
  [copy, scaffolded, scratch] = await Promise.all([
    repositoryCopy("new-flow"),
    repositoryCopy("new-flow-scaffolded"),
    tempDir("new-flow-scratch"),
  ]);
});

after(() => {
  copy.remove();
  scaffolded.remove();
  scratch.remove();
});

const newFlow = (inCopy: RepositoryCopy, ...args: string[]) =>
  inCopy.run("npm", ["run", "--silent", "new:flow", "--", ...args]);
/** The script new:flow runs, run by node itself: the same refusal, without npm's and tsx's own start-up. */
const newFlowScript = (...args: string[]) =>
  copy.run(process.execPath, ["--import", "tsx", "src/cli/new-flow.ts", ...args]);
// TAP by name: from Node 23 on, the default reporter is spec even when the output is a pipe.
const kettleSuite = (env: Record<string, string> = {}): Promise<ChildRun> =>
  scaffolded.run(
    process.execPath,
    ["src/cli/flowcheck.mjs", "test", "test/flows/kettle-flow.spec.ts", "--test-reporter=tap"],
    env,
  );
const kettleChecklist = (): FlowChecklist => {
  const results = JSON.parse(
    readFileSync(join(scaffolded.path, "test", ".tmp", "run-results.json"), "utf8"),
  ) as RunResults;
  return results.checklist!.find((flow) => flow.flow === "KettleFlow")!;
};

/** Every file under `dir`, relative to it: what a refused command must leave as it was. */
function filesUnder(dir: string, prefix = ""): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) =>
    entry.name === "node_modules"
      ? []
      : entry.isDirectory()
        ? filesUnder(dir, join(prefix, entry.name))
        : [join(prefix, entry.name)],
  );
}

// The scaffolding tests write one copy, in order; the others read another copy or write their own
// folders, so they run beside them. The scaffolding goes first, being the longest.
describe("new:flow", { concurrency: 2 }, () => {
  describe("scaffolding KettleFlow into a copy, then typechecking and playing it", { concurrency: 1 }, () => {
    test("new:flow KettleFlow writes the flow, its scenario and spec, and registers it in the team's list, changing no other flow file", async () => {
      const flows = join(scaffolded.path, "src", "flows");
      const before = new Map(filesUnder(flows).map((file) => [file, readFileSync(join(flows, file), "utf8")]));
      const run = await newFlow(scaffolded, "KettleFlow");
      assert.equal(run.code, 0, run.stderr);
      for (const file of [
        "src/flows/kettle/choice-step.ts",
        "src/flows/kettle/note-step.ts",
        "src/flows/kettle/kettle-flow.ts",
        "src/flows/kettle/kettle-flow-scripts.ts",
        "src/flows/kettle/index.ts",
        SCENARIO,
        "test/flows/kettle-flow.spec.ts",
      ]) {
        assert.ok(existsSync(join(scaffolded.path, file)), file);
      }
      const team = readFileSync(join(scaffolded.path, "src", "flows", "team-flows.ts"), "utf8");
      assert.match(team, /^import \{ kettleFlowEntry \} from "\.\/kettle\/index\.ts";$/m);
      assert.match(team, /teamFlows: readonly FlowEntry\[\] = Object\.freeze\(\[kettleFlowEntry\]\);/);
      const changed = filesUnder(flows).filter((file) => before.get(file) !== readFileSync(join(flows, file), "utf8"));
      assert.deepEqual(
        changed.sort(),
        [
          "kettle/choice-step.ts",
          "kettle/index.ts",
          "kettle/kettle-flow-scripts.ts",
          "kettle/kettle-flow.ts",
          "kettle/note-step.ts",
          "team-flows.ts",
        ].map((file) => join(...file.split("/"))),
      );
      const again = await newFlow(scaffolded, "KettleFlow");
      assert.equal(again.code, 2);
      assert.match(again.stderr, /KettleFlow is taken/);
    });

    test("the scaffolded flow typechecks with the project's settings", async () => {
      const run = await scaffolded.run("npm", ["run", "--silent", "typecheck"]);
      assert.equal(run.code, 0, run.stdout + run.stderr);
    });

    test("the scaffolded suite passes under FLOW_CHECKLIST=strict, and the checklist proves every KettleFlow point it can judge", async () => {
      const run = await kettleSuite({ FLOW_CHECKLIST: "strict" });
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.match(run.stdout, /^# fail 0$/m);
      // Every point it can judge proved: one line for the flow, and no table.
      assert.match(
        run.stdout,
        /^ {2}KettleFlow {2}2\/2 steps · 2\/2 tools · checklist 11 ✓, 2 n\/a, 2 not in this run$/m,
      );
      assert.doesNotMatch(run.stdout, /^ {4}[✓✗–?] /m);
      const checklist = kettleChecklist();
      assert.equal(checklist.judged, true);
      const statuses = Object.fromEntries(checklist.points.map((point) => [point.id, point.status]));
      for (const id of ["1", "2", "3", "4", "5", "6", "7", "8", "11", "steps", "tools", "transitions"].filter(
        (each) => each !== "11",
      ))
        assert.equal(statuses[id], "proved", id);
      assert.equal(statuses["9"], "not applicable");
      assert.equal(statuses["11"], "not applicable");
      // The project-wide points come from their own specs and the typecheck, which this run did not include.
      assert.equal(statuses["10"], "not judged");
      assert.equal(statuses["12"], "not judged");
      assert.match(
        checklist.points.find((point) => point.id === "4")!.detail,
        /ChoiceStep\.save_choice: kettle-flow turn 1 'choice off the list is refused'/,
      );
    });

    test("without its refused choice, point 4 is ✗ naming the tool, and FLOW_CHECKLIST=strict (or KETTLE_FLOW_STRICT_CHECKLIST=1) fails the run saying what to add", async () => {
      const file = join(scaffolded.path, SCENARIO);
      const scenario = JSON.parse(readFileSync(file, "utf8"));
      scenario.turns.shift();
      // The final expectations follow the shorter conversation, so only the checklist can fail it.
      scenario.finalExecution = scenario.finalExecution
        .slice(1)
        .map((entry: { turn: number }) => ({ ...entry, turn: entry.turn - 1 }));
      scenario.finalMemory.ChoiceStep = scenario.finalMemory.ChoiceStep.slice(4);
      writeFileSync(file, JSON.stringify(scenario, null, 2));

      const report = await kettleSuite();
      assert.equal(report.code, 0, report.stdout + report.stderr);
      // The flow's table follows its line, the ✗ saying what to add.
      assert.match(
        report.stdout,
        /^ {2}KettleFlow {2}2\/2 steps · 2\/2 tools · checklist 9 ✓, 2 ✗ to add, 2 n\/a, 2 not in this run\n {4}✓ {2}1 /m,
      );
      assert.match(
        report.stdout,
        /^ {4}✗ {2}4 .* add a turn whose input ChoiceStep\.save_choice refuses \(stay\), expecting the same step$/m,
      );
      assert.equal(kettleChecklist().points.find((point) => point.id === "4")!.status, "missing");

      for (const env of [{ FLOW_CHECKLIST: "strict" }, { KETTLE_FLOW_STRICT_CHECKLIST: "1" }] as Record<
        string,
        string
      >[]) {
        const strict = await kettleSuite(env);
        assert.equal(strict.code, 1, JSON.stringify(env));
        assert.match(strict.stdout, /^# fail 0$/m);
        assert.match(strict.stdout, /^ {2}KettleFlow .* 2 ✗ to add \(strict\), .*\n {4}✓ {2}1 /m);
        assert.match(
          strict.stderr,
          /new-flow checklist failed \(FLOW_CHECKLIST=strict, checklist_failed\): 2 points not proved:\n {2}- KettleFlow, point 4 \(each tool refuses bad input in place\): add a turn whose input ChoiceStep\.save_choice refuses/,
        );
      }
    });
  });

  test("every file new:flow writes or edits is formatted as biome.json says, for a short name and one of the longest it takes", async () => {
    // Line lengths follow the name: the longest, of many words, makes the longest paths and
    // signatures, and the two entries together no longer fit the team's list on one line.
    const longest = "MultiStepHomeInsuranceRenewalQuoteFlow";
    assert.equal(longest.length, LONGEST_FLOW_NAME, "a name as long as new:flow takes");
    const formatted = await repositoryCopy("new-flow-formatted");
    try {
      copyFileSync(resolve(import.meta.dirname, "..", "..", "biome.json"), join(formatted.path, "biome.json"));
      const written = new Set<string>();
      for (const name of ["GreenTeaFlow", longest]) {
        const run = await newFlow(formatted, name);
        assert.equal(run.code, 0, run.stderr);
        for (const [, path] of run.stdout.matchAll(/^ {2}(\S+)/gm)) written.add(path!);
      }
      const code = [...written].filter((path) => path.endsWith(".ts"));
      assert.equal(code.length, 13, [...written].join("\n"));
      // The copy has no git: the files are named, so biome.json's ignore-file setting has nothing to add.
      const format = await biome(formatted.path, ["format", "--vcs-enabled=false", "--reporter=summary", ...written]);
      assert.equal(checkedFiles(format.output), code.length, format.output);
      assert.deepEqual(unformattedFiles(format.output), [], format.output);
      assert.equal(format.code, 0, format.output);
      const sources = code.filter((path) => path.startsWith("src/"));
      const lint = await biome(formatted.path, ["lint", "--vcs-enabled=false", ...sources]);
      assert.equal(lint.code, 0, lint.output);
      const long = sources.flatMap((path) =>
        readFileSync(join(formatted.path, path), "utf8")
          .split("\n")
          .filter((line) => line.length > 140),
      );
      assert.deepEqual(long, [], "src/ keeps its lines over 140 characters to the ones it has");
      assert.match(
        readFileSync(join(formatted.path, "src", "flows", "team-flows.ts"), "utf8"),
        /= Object\.freeze\(\[\n {2}greenTeaFlowEntry,\n {2}multiStepHomeInsuranceRenewalQuoteFlowEntry,\n\]\);/,
      );
    } finally {
      formatted.remove();
    }
  });

  test("new:flow --dry-run lists the files it would write and writes none", async () => {
    const before = filesUnder(copy.path);
    const run = await newFlow(copy, "KettleFlow", "--dry-run");
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /would write KettleFlow:\n {2}src\/flows\/kettle\/choice-step\.ts\n/);
    assert.match(
      run.stdout,
      /scenarios\/kettle-flow\.scenario\.json\n {2}test\/flows\/kettle-flow\.spec\.ts\n {2}src\/flows\/team-flows\.ts \(registers kettleFlowEntry\)/,
    );
    assert.deepEqual(filesUnder(copy.path), before);
  });

  test("new:flow refuses a name that is not PascalCase ending in Flow, or is too long, saying the rule, and writes nothing", async () => {
    const before = filesUnder(copy.path);
    for (const name of ["teaFlow", "Tea", "Flow", "Tea-Flow", "MultiStepHomeInsuranceRenewalQuoteTeaFlow"]) {
      const run = await newFlowScript(name);
      assert.equal(run.code, 2, name);
      assert.match(
        run.stderr,
        new RegExp(
          `is not a flow name: a flow name is PascalCase letters and digits ending in Flow, .*at most ${LONGEST_FLOW_NAME} characters.*\\(flow_name_invalid\\)`,
        ),
        name,
      );
    }
    assert.deepEqual(filesUnder(copy.path), before);
  });

  test("new:flow refuses the name of a flow that src/flows already defines, even one not registered", async () => {
    const flows = join(scratch.path, "taken", "src", "flows");
    mkdirSync(join(flows, "coffee"), { recursive: true });
    writeFileSync(
      join(flows, "coffee", "coffee-flow.ts"),
      'export const CoffeeFlow = defineFlow({ name: "CoffeeFlow", steps });\n',
    );
    writeFileSync(join(flows, "team-flows.ts"), "export const teamFlows: readonly FlowEntry[] = Object.freeze([]);\n");
    const before = filesUnder(join(scratch.path, "taken"));
    const run = await newFlow(copy, "CoffeeFlow", "--root", join(scratch.path, "taken"));
    assert.equal(run.code, 2);
    assert.match(
      run.stderr,
      /CoffeeFlow is taken: .*src\/flows\/coffee\/coffee-flow\.ts defines a flow of that name\. Choose another name .*\(flow_name_taken\)/,
    );
    assert.deepEqual(filesUnder(join(scratch.path, "taken")), before);
  });

  test("new:flow refuses a team-flows.ts without its teamFlows list, and leaves nothing half-written", async () => {
    const root = join(scratch.path, "unreadable");
    mkdirSync(join(root, "src", "flows"), { recursive: true });
    writeFileSync(join(root, "src", "flows", "team-flows.ts"), "export const flows = [];\n");
    const run = await newFlow(copy, "KettleFlow", "--root", root);
    assert.equal(run.code, 2);
    assert.match(
      run.stderr,
      /has no "export const teamFlows: readonly FlowEntry\[\] = \[\.\.\.\]" list to add KettleFlow to; restore that line .*\(team_flows_unreadable\)/,
    );
    assert.deepEqual(filesUnder(root), [join("src", "flows", "team-flows.ts")]);
  });
});
