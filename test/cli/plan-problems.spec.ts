import assert from "node:assert/strict";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test, type TestContext } from "node:test";
import { shardOf } from "../../src/cli/shard-scenarios.ts";
import { specsForScenarios } from "../../src/cli/specs-for-scenarios.ts";
import { ROOT, runFlowcheck } from "../support/child-run.ts";
import { tempDir } from "../support/temp-path.ts";
import { sourceLines } from "../tools/configuration-reads.ts";

// What stops a run before anything plays is returned to the command with its exit code, which
// prints it: nothing below the command ends the process.

/** The entries that may end the process: flowcheck's bin, its Node check, and `npm run new:flow`'s script. */
const ENTRIES = ["src/cli/flowcheck.mjs", "src/cli/supported-node.mjs", "src/cli/new-flow.ts"];

const turns = [{ label: "greets", input: "hello", expectedActiveStep: "FarewellStep" }];

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
    const from = (path: string) => JSON.stringify(join(ROOT, path));
    const dir = await folderWith(t, {
      "journeys/only.scenario.json": { flowName: "RelayFlow", turns },
      "specs/relay-flow.spec.ts":
        `import { describeFlowScenarios } from ${from("src/testing/index.ts")};\n` +
        `import { relayFlows } from ${from("test/support/relay-flow.ts")};\n` +
        `describeFlowScenarios("RelayFlow", { flows: relayFlows, dir: "journeys" });\n`,
    });
    const child = await runFlowcheck(["test", "specs", "journeys", "--test-shard=1/2"], {}, undefined, dir);
    assert.equal(child.code, 0, child.stdout + child.stderr);
    assert.match(child.stdout, /^flowcheck test: shard 1\/2 has nothing to run \(1 scenario files in 2 shards\)\.$/m);
    assert.equal(existsSync(join(dir, "test/.tmp/run-results.json")), true);
  });
});
