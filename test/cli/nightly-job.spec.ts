import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { DEFAULT_JUDGE_LABELS } from "../../src/testing/judge/judge-labels.ts";
import { tempDir } from "../support/temp-path.ts";
import { parseTinyYaml } from "../support/tiny-yaml.ts";
import { ROOT, runCommand, runFlowcheck } from "../support/child-run.ts";

// Each has its own folder and flowcheck test child in it, so they run side by side.
describe("flowcheck test as the nightly job runs it, writing JUnit into folders it makes", { concurrency: 2 }, () => {
  test("flowcheck test makes the folder a reporter writes to, so a JUnit report in a fresh checkout's test/.tmp/ is written", async () => {
    const dir = await tempDir("nightly-job");
    try {
      writeFileSync(
        join(dir.path, "one.spec.ts"),
        `import { test } from "node:test";\ntest("one passes", () => {});\n`,
      );
      const junit = join(dir.path, "not", "yet", "there", "junit.xml");
      const run = await runCommand(
        process.execPath,
        [
          join(ROOT, "src", "cli", "flowcheck.mjs"),
          "test",
          dir.path,
          "--test-reporter=spec",
          "--test-reporter-destination=stdout",
          "--test-reporter=junit",
          "--test-reporter-destination",
          junit,
        ],
        {},
        undefined,
        dir.path,
      );
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.ok(existsSync(junit), run.stderr);
      assert.match(readFileSync(junit, "utf8"), /<testcase name="one passes"/);
    } finally {
      dir.remove();
    }
  });

  test("the nightly job is npm run test:nightly: live and judged unless told otherwise, JUnit in test/.tmp/", () => {
    const scripts = (
      JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }
    ).scripts;
    const nightly = scripts["test:nightly"] ?? "";
    assert.match(
      nightly,
      /^FLOW_MODEL=\$\{FLOW_MODEL:-live\} JUDGE=\$\{JUDGE:-required\} node src\/cli\/flowcheck\.mjs test test\/flows /,
    );
    assert.match(nightly, / --junit test\/\.tmp\/junit\.xml$/);
  });

  test("--junit writes the run's one result as JUnit, a testsuite per conversation, making the file's folder", async () => {
    const dir = await tempDir("nightly-junit");
    try {
      const scenarios = join(dir.path, "relay");
      mkdirSync(scenarios);
      writeFileSync(
        join(scenarios, "relay.scenario.json"),
        JSON.stringify({
          flowName: "RelayFlow",
          turns: [{ label: "greets", input: "hello", expectedActiveStep: "FarewellStep" }],
        }),
      );
      writeFileSync(
        join(dir.path, "relay-flow.spec.ts"),
        `import { describeFlowScenarios } from ${JSON.stringify(join(ROOT, "src", "testing", "index.ts"))};\n` +
          `import { relayFlows } from ${JSON.stringify(join(ROOT, "test", "support", "relay-flow.ts"))};\n` +
          `describeFlowScenarios("RelayFlow", { flows: relayFlows, dir: "relay" });\n`,
      );
      const junit = join(dir.path, "not", "yet", "there", "junit.xml");
      const run = await runFlowcheck(["test", "relay-flow.spec.ts", "--junit", junit], {}, undefined, dir.path);
      assert.equal(run.code, 0, run.stdout + run.stderr);
      const xml = readFileSync(junit, "utf8");
      assert.match(xml, /<testsuite [^>]*name="RelayFlow: relay"/);
      assert.match(xml, /<testcase [^>]*name="1\. greets"/);
    } finally {
      dir.remove();
    }
  });
});
interface Step {
  name?: string;
  id?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, unknown>;
  env?: Record<string, unknown>;
}
interface Job {
  needs?: string;
  if?: string;
  permissions?: Record<string, string>;
  strategy?: { "fail-fast"?: boolean; matrix?: Record<string, unknown[]> };
  steps: Step[];
}

function workflow(name: string): { jobs: Record<string, Job> } {
  return parseTinyYaml(readFileSync(join(ROOT, ".github", "workflows", name), "utf8")) as { jobs: Record<string, Job> };
}

/** The npm script a step's `run` calls, which must be one of package.json's, as a user runs it. */
function npmScripts(job: Job): string[] {
  return job.steps.flatMap((step) => [...(step.run ?? "").matchAll(/\bnpm run ([\w:-]+)/g)].map((match) => match[1]!));
}

test("every workflow parses as YAML, and the npm scripts its steps run are package.json's", () => {
  const scripts = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> })
    .scripts;
  for (const name of ["ci.yml", "live.yml"]) {
    for (const [id, job] of Object.entries(workflow(name).jobs)) {
      assert.ok(Array.isArray(job.steps) && job.steps.length > 0, `${name}: ${id} has steps`);
      for (const script of npmScripts(job))
        assert.ok(script in scripts, `${name}: ${id} runs npm run ${script}, which package.json lacks`);
    }
  }
});

test("the scheduled workflow runs npm run test:nightly in four shards, each keeping its test/.tmp, hidden folder and all", () => {
  const { live } = workflow("live.yml").jobs;
  assert.deepEqual(live?.strategy, { "fail-fast": false, matrix: { shard: [1, 2, 3, 4] } });
  const run = live.steps.find((step) => step.run?.startsWith("npm run test:nightly"));
  assert.equal(run?.run, 'npm run test:nightly -- --test-shard="${SHARD}/4" --repeat "${REPEAT}"');
  assert.equal(run.env?.["SHARD"], "${{ matrix.shard }}");
  assert.equal(run.env["JUDGE_SAMPLES"], "3", "each verdict the majority of three samples, its instability shown");
  const upload = live.steps.find((step) => step.uses === "actions/upload-artifact@v4");
  assert.equal(upload?.if, "always()");
  assert.deepEqual(upload.with, {
    name: "live-shard-${{ matrix.shard }}",
    path: "test/.tmp/",
    "include-hidden-files": true,
    "retention-days": 30,
  });
});

test("the workflow's merge job, after every shard even a red one, merges their results into one with JUnit, the job summary, an HTML page and an artifact, compared with the last successful run's", () => {
  const { merge } = workflow("live.yml").jobs;
  assert.equal(merge?.needs, "live");
  assert.equal(merge.if, "always()");
  assert.deepEqual(merge.permissions, { actions: "read", contents: "read" });
  const download = merge.steps.find((step) => step.uses === "actions/download-artifact@v4");
  assert.deepEqual(download?.with, { pattern: "live-shard-*", path: "shards/" });
  const previous = merge.steps.find((step) => step.run?.startsWith(".github/scripts/previous-results.sh"));
  assert.equal(previous?.run, ".github/scripts/previous-results.sh previous");
  assert.equal(previous.id, "previous");
  assert.deepEqual(previous.env, { GH_TOKEN: "${{ github.token }}" });
  const compare = ' ${PREVIOUS:+--compare "$PREVIOUS"}';
  const merging = merge.steps.find((step) => step.run?.startsWith("npm run results:merge"));
  assert.equal(
    merging?.run,
    `npm run results:merge -- shards/ --out test/.tmp/run-results.json --junit test/.tmp/junit.xml --summary "$GITHUB_STEP_SUMMARY"${compare}`,
  );
  const page = merge.steps.find((step) => step.run?.startsWith("npm run report"));
  assert.equal(page?.run, `npm run report -- test/.tmp/run-results.json --out test/.tmp/report.html${compare}`);
  for (const step of [merging, page]) assert.deepEqual(step.env, { PREVIOUS: "${{ steps.previous.outputs.results }}" });
  assert.ok(merge.steps.indexOf(previous) < merge.steps.indexOf(merging));
  assert.ok(merge.steps.indexOf(merging) < merge.steps.indexOf(page));
  const upload = merge.steps.find((step) => step.uses === "actions/upload-artifact@v4");
  assert.equal(upload?.with?.["name"], "live-results", "the artifact previous-results.sh downloads");
  assert.equal(
    upload.with["path"],
    "test/.tmp/run-results.json\ntest/.tmp/report.html\ntest/.tmp/junit.xml\ntest/.tmp/judge-calibration.json\n",
  );
  assert.equal(upload.with["include-hidden-files"], true);
});

test("after the merge, the nightly calibrates the live judge on the committed labels, its output in the job summary, failing under JUDGE_MIN_AGREEMENT", () => {
  const { merge } = workflow("live.yml").jobs;
  const steps = merge?.steps ?? [];
  const merging = steps.findIndex((step) => step.run?.startsWith("npm run results:merge"));
  const calibrating = steps.findIndex((step) => step.run?.includes("npm run judge:calibrate"));
  const upload = steps.findIndex((step) => step.uses === "actions/upload-artifact@v4");
  assert.ok(merging >= 0 && calibrating > merging && upload > calibrating, "merge, then calibrate, then keep");
  const step = steps[calibrating]!;
  assert.equal(step.if, `\${{ !cancelled() && hashFiles('${DEFAULT_JUDGE_LABELS}') != '' }}`);
  const script = step.run!.split("\n");
  assert.ok(
    script.includes(
      'npm run judge:calibrate --silent -- --min-agreement "$JUDGE_MIN_AGREEMENT" > test/.tmp/judge-calibration.txt 2>&1',
    ),
    step.run,
  );
  assert.ok(
    script.some((line) => line.includes('>> "$GITHUB_STEP_SUMMARY"')),
    "its output goes to the job summary",
  );
  assert.equal(script.at(-2), "exit $status", "the job fails when the calibration does");
  assert.deepEqual(step.env, {
    OPENAI_API_KEY: "${{ secrets.OPENAI_API_KEY }}",
    FLOW_MODEL: "live",
    JUDGE_MIN_AGREEMENT: "${{ vars.JUDGE_MIN_AGREEMENT || '0.9' }}",
  });
});

test("package.json runs the judge's label and calibrate commands as judge:label and judge:calibrate", () => {
  const scripts = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> })
    .scripts;
  assert.equal(scripts["judge:label"], "node src/cli/flowcheck.mjs judge label");
  assert.equal(scripts["judge:calibrate"], "node src/cli/flowcheck.mjs judge calibrate");
});

test("ci.yml runs npm test on Node 22, 24 and 26 and keeps each failed suite's test/.tmp, hidden folder and all", () => {
  const job = workflow("ci.yml").jobs["test"]!;
  assert.deepEqual(job.strategy?.matrix, { node: [22, 24, 26] });
  const suite = job.steps.findIndex((step) => step.run === "npm test");
  const upload = job.steps.findIndex((step) => step.uses === "actions/upload-artifact@v4");
  assert.ok(suite >= 0 && upload > suite, "the upload follows npm test");
  assert.equal(job.steps[upload]!.if, "failure()");
  assert.deepEqual(job.steps[upload]!.with, {
    name: "test-tmp-node-${{ matrix.node }}",
    path: "test/.tmp/",
    "include-hidden-files": true,
    "retention-days": 14,
  });
});

test("the YAML check this relies on refuses what is not well-formed", () => {
  assert.deepEqual(parseTinyYaml("a:\n  b: [1, 2]\n  c: |\n    x\n    y\nd:\n  - e: 'f'\n    g: h # note\n  - i\n"), {
    a: { b: [1, 2], c: "x\ny\n" },
    d: [{ e: "f", g: "h" }, "i"],
  });
  for (const bad of [
    "a:\n\tb: 1\n",
    "a: 1\na: 2\n",
    "a:\n  b: 1\n   c: 2\n",
    'a: "open\n',
    "- a\nb: 1\n",
    "a: {b: 1}\n",
  ]) {
    assert.throws(() => parseTinyYaml(bad), /^Error: (line \d+: |an unclosed|"{b: 1}" is YAML)/, JSON.stringify(bad));
  }
});

test("the Node lines package.json's engines names are the ones ci.yml tests, .ci/run installs (the newest for its main block), and the README names", () => {
  const engines = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { engines: { node: string } })
    .engines.node;
  const supported = [...engines.matchAll(/\^(\d+)/g)].map((match) => Number(match[1]));
  assert.ok(supported.length >= 3, `engines.node is ${engines}`);
  const matrix = workflow("ci.yml").jobs["test"]?.strategy?.matrix?.["node"];
  assert.deepEqual(matrix, supported);
  const run = readFileSync(join(ROOT, ".ci", "run"), "utf8");
  const main = /^MAIN_NODE=(\d+)\.\d+\.\d+$/m.exec(run)?.[1];
  assert.equal(Number(main), supported.at(-1), ".ci/run's MAIN_NODE=… is the newest supported line");
  const others = /^OTHER_NODES=\(([^)]*)\)$/m
    .exec(run)?.[1]
    ?.split(" ")
    .map((version) => Number(version.split(".")[0]));
  assert.ok(others, ".ci/run has no OTHER_NODES=(…) line");
  assert.deepEqual(others, supported.slice(0, -1), "every supported line but the newest, which the main block runs on");
  const readme = /^Node (\d+) \((\d+\.\d+) or later\), ([^:]*): CI runs the suite on all \w+\./m.exec(
    readFileSync(join(ROOT, "README.md"), "utf8"),
  );
  assert.ok(readme, "README.md has no 'Node … (… or later), …: CI runs the suite on all …' line");
  assert.deepEqual(
    [Number(readme[1]), ...[...readme[3]!.matchAll(/\d+/g)].map((match) => Number(match[0]))],
    supported,
  );
  assert.equal(readme[2], /^\^(\d+\.\d+)/.exec(engines)?.[1], "the README's floor is engines.node's");
});
