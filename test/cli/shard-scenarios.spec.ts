import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { isPlanProblem } from "../../src/cli/plan-problem.ts";
import { shardOf } from "../../src/cli/shard-scenarios.ts";
import { tempDir } from "../support/temp-path.ts";

test("each shard gets an even, contiguous slice of the sorted scenario files, and the specs describing no scenarios run in shard 1 alone", async () => {
  const dir = await tempDir("shard-scenarios");
  try {
    const journeys = join(dir.path, "journeys");
    mkdirSync(join(journeys, "team"), { recursive: true });
    const names = ["a", "b", "c", "team/d", "team/e"];
    for (const name of names)
      writeFileSync(join(journeys, `${name}.scenario.json`), JSON.stringify({ flowName: "RelayFlow", turns: [] }));
    writeFileSync(join(journeys, "notes.json"), JSON.stringify({ flowName: "RelayFlow" }));
    const flowSpec = join(dir.path, "relay-flow.spec.ts");
    const unitSpec = join(dir.path, "unit.spec.ts");
    writeFileSync(flowSpec, `describeFlowScenarios("RelayFlow", { flows: [] });\n`);
    writeFileSync(unitSpec, `test("a unit", () => {});\n`);
    const shards = [1, 2, 3].map((index) => {
      const shard = shardOf([flowSpec, unitSpec], [journeys], { index, total: 3 });
      assert.ok(!isPlanProblem(shard), JSON.stringify(shard));
      return shard;
    });
    const file = (name: string) => join(journeys, `${name}.scenario.json`);
    assert.deepEqual(
      shards.map((shard) => shard.scenarioPaths),
      // The misnamed file is every flow spec's to report, once: in shard 1.
      [
        [file("a"), join(journeys, "notes.json")],
        [file("b"), file("c")],
        [file("team/d"), file("team/e")],
      ],
    );
    assert.deepEqual(
      shards.map((shard) => shard.files),
      [[flowSpec, unitSpec], [flowSpec], [flowSpec]],
    );
    assert.deepEqual(
      shards.map((shard) => shard.scenarios),
      [5, 5, 5],
    );
    const many = shardOf([flowSpec, unitSpec], [journeys], { index: 3, total: 8 });
    assert.deepEqual(
      many,
      { files: [], scenarioPaths: [], scenarios: 5 },
      "a shard left without a scenario runs nothing",
    );
    assert.deepEqual(shardOf([unitSpec], [journeys], { index: 2, total: 2 }), {
      files: [],
      scenarioPaths: [],
      scenarios: 0,
    });
  } finally {
    dir.remove();
  }
});
