import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, test, type TestContext } from "node:test";
import type { RunEvent } from "../../src/testing/index.ts";
import { shardOf } from "../../src/cli/shard-scenarios.ts";
import { specsForScenarios } from "../../src/cli/specs-for-scenarios.ts";
import { ROOT, runFlowcheck } from "../support/child-run.ts";
import { tempDir } from "../support/temp-path.ts";
import { sourceLines } from "../tools/configuration-reads.ts";

// What stops a run before anything plays is returned to the command with its exit code, which
// tells it to the run's reporters (the summary prints it): nothing below the command ends the process.

/** The entries that may end the process: flowcheck's bin, its Node check, and `npm run new:flow`'s script. */
const ENTRIES = ["src/cli/flowcheck.mjs", "src/cli/supported-node.mjs", "src/cli/new-flow.ts"];

const turns = [{ label: "greets", input: "hello", expectedActiveStep: "FarewellStep" }];

/** A reporter module that writes every event of the run it is given to test/.tmp/events.jsonl. */
const RECORD_EVENTS = resolve(import.meta.dirname, "..", "fixtures", "reporters", "record-events.ts");

/** The events the recording reporter was handed in the run played in `dir`. */
function recordedEvents(dir: string): RunEvent[] {
  const lines = readFileSync(join(dir, "test/.tmp/events.jsonl"), "utf8").trim().split("\n");
  return lines.map((line) => JSON.parse(line) as RunEvent);
}

/** The `run:problem` a run told its reporters, after asserting it came alone between the run's begin and end. */
function toldProblem(dir: string): unknown {
  const events = recordedEvents(dir);
  assert.deepEqual(
    events.map((event) => event.type),
    ["run:begin", "run:problem", "run:end"],
  );
  return events[1]!.data;
}

/** A project whose one spec describes RelayFlow's scenarios under journeys/, which holds `only.scenario.json`. */
function relayProject(): Record<string, unknown> {
  const from = (path: string) => JSON.stringify(join(ROOT, path));
  return {
    "journeys/only.scenario.json": { flowName: "RelayFlow", turns },
    "specs/relay-flow.spec.ts":
      `import { describeFlowScenarios } from ${from("src/testing/index.ts")};\n` +
      `import { relayFlows } from ${from("test/support/relay-flow.ts")};\n` +
      `describeFlowScenarios("RelayFlow", { flows: relayFlows, dir: "journeys" });\n`,
  };
}

/** A folder of its own, removed after the test, with `files` (path → JSON) written in it. */
async function folderWith(t: TestContext, files: Record<string, unknown>): Promise<string> {
  const dir = await tempDir("plan-problems");
  t.after(dir.remove);
  for (const [path, body] of Object.entries(files)) {
    mkdirSync(join(dir.path, path, ".."), { recursive: true });
    writeFileSync(join(dir.path, path), typeof body === "string" ? body : JSON.stringify(body));
  }
  return dir.path;
}

test("a folder with no scenario file is a problem with exit code 1, returned while this process goes on", async (t) => {
  const dir = await folderWith(t, { "empty/notes.txt": "" });
  assert.deepEqual(specsForScenarios([], [join(dir, "empty")]), {
    problem: [`flowcheck test: no *.scenario.json under ${join(dir, "empty")}; nothing to run.`],
    exitCode: 1,
  });
});

test("a scenario whose flow no spec, target or project flow runs is a problem with exit code 1 naming it, in a shard too", async (t) => {
  const dir = await folderWith(t, {
    "journeys/lost.scenario.json": { flowName: "LostFlow", turns },
    "journeys/relay.scenario.json": { flowName: "RelayFlow", turns },
    "relay-flow.spec.ts": "",
  });
  const spec = join(dir, "relay-flow.spec.ts");
  const journeys = join(dir, "journeys");
  const found = specsForScenarios([spec], [journeys]);
  assert.ok("problem" in found, JSON.stringify(found));
  assert.equal(found.exitCode, 1);
  assert.equal(found.problem.length, 1);
  assert.match(
    found.problem[0]!,
    /lost\.scenario\.json has "flowName": "LostFlow", but no spec given runs LostFlow's scenarios \(they run RelayFlow\)/,
  );
  assert.deepEqual(shardOf([spec], [journeys], { index: 1, total: 1 }), found);
});

test("process.exit is called by the entries alone: below them, an exit code is returned", () => {
  const exits = sourceLines("src", /\bprocess\.exit\(/).filter((each) => !ENTRIES.includes(each.file));
  assert.deepEqual(
    exits.map((each) => `${each.file}:${each.line} ${each.text}`),
    [],
  );
});

describe("flowcheck test stops before anything plays", { concurrency: 2 }, () => {
  test("given scenarios that leave no spec to run, it says there is nothing to run and exits 1", async (t) => {
    // A file that looks like a scenario but is misnamed is every flow spec's to report: here there is none.
    const dir = await folderWith(t, { "journeys/notes.json": { flowName: "RelayFlow", turns } });
    const child = await runFlowcheck(["test", "journeys"], {}, undefined, dir);
    assert.equal(child.code, 1, child.stdout + child.stderr);
    assert.equal(child.stderr.trim(), "flowcheck test: no *.spec.ts under journeys; nothing to run.");
    assert.equal(existsSync(join(dir, "test/.tmp/run-results.json")), false);
  });

  test("a shard left with nothing to run says so and exits 0, leaving its empty results for the merge", async (t) => {
    const dir = await folderWith(t, relayProject());
    const child = await runFlowcheck(["test", "specs", "journeys", "--test-shard=1/2"], {}, undefined, dir);
    assert.equal(child.code, 0, child.stdout + child.stderr);
    assert.match(child.stdout, /^flowcheck test: shard 1\/2 has nothing to run \(1 scenario files in 2 shards\)\.$/m);
    assert.equal(existsSync(join(dir, "test/.tmp/run-results.json")), true);
  });

  test("a team's reporter is told why nothing runs, as a run:problem with the lines printed and exit code 1", async (t) => {
    const dir = await folderWith(t, { "journeys/notes.json": { flowName: "RelayFlow", turns } });
    const child = await runFlowcheck(["test", "journeys", "--reporter", RECORD_EVENTS], {}, undefined, dir);
    assert.equal(child.code, 1, child.stdout + child.stderr);
    const lines = ["flowcheck test: no *.spec.ts under journeys; nothing to run."];
    assert.deepEqual(toldProblem(dir), { lines, exitCode: 1 });
    assert.equal(child.stderr.trim(), lines[0]);
  });

  test("a configuration that does not read is told to the reporters as a run:problem with exit code 2, and printed once", async (t) => {
    const dir = await folderWith(t, relayProject());
    const child = await runFlowcheck(
      ["test", "specs", "journeys", "--reporter", RECORD_EVENTS],
      { FLOW_MODEL: "sometimes" },
      undefined,
      dir,
    );
    assert.equal(child.code, 2, child.stdout + child.stderr);
    const problem = toldProblem(dir) as { lines: string[]; exitCode: number };
    assert.equal(problem.exitCode, 2);
    assert.equal(problem.lines.length, 1);
    assert.match(problem.lines[0]!, /^flowcheck test: stopped before playing anything: config_invalid: .*FLOW_MODEL/s);
    assert.equal(child.stderr.trim(), problem.lines[0]);
    assert.equal(child.stdout, "");
    assert.equal(existsSync(join(dir, "test/.tmp/run-results.json")), false);
  });

  test("an empty shard is told to the reporters with exit code 0 and its shard in the run's begin, and its results name the shard", async (t) => {
    const dir = await folderWith(t, relayProject());
    const child = await runFlowcheck(
      ["test", "specs", "journeys", "--test-shard=1/2", "--reporter", RECORD_EVENTS],
      {},
      undefined,
      dir,
    );
    assert.equal(child.code, 0, child.stdout + child.stderr);
    assert.deepEqual(toldProblem(dir), {
      lines: ["flowcheck test: shard 1/2 has nothing to run (1 scenario files in 2 shards)."],
      exitCode: 0,
    });
    const begin = recordedEvents(dir)[0]!;
    assert.equal(begin.type === "run:begin" && begin.data.shard, "1/2");
    const results = JSON.parse(readFileSync(join(dir, "test/.tmp/run-results.json"), "utf8")) as { shards?: string[] };
    assert.deepEqual(results.shards, ["1/2"]);
    assert.match(child.stdout, /^0 conversations: /m);
  });
});
