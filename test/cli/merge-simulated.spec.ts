import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { simulatedSummary } from "../../src/testing/report/pass-k.ts";
import type { RunResults } from "../../src/testing/report/run-results.ts";
import { runFlowcheck } from "../support/child-run.ts";
import { sampleRunResults, sampleSimulated } from "../support/sample-run-results.ts";
import { tempDir } from "../support/temp-path.ts";

test("flowcheck merge of two shards holding repeats of a simulated scenario writes and prints its successes over all its tries and pass^k recomputed", async () => {
  const dir = await tempDir("merge-simulated");
  try {
    const outcomes = [
      ["passed", "failed"],
      ["passed", "passed", "failed"],
    ] as const;
    let index = 0;
    outcomes.forEach((shard, at) => {
      const conversations = shard.map((outcome) => sampleSimulated("booking", { index: ++index, of: 5 }, outcome));
      mkdirSync(join(dir.path, "shards", String(at + 1)), { recursive: true });
      const results = sampleRunResults(conversations, {
        shards: [`${at + 1}/2`],
        simulated: simulatedSummary(conversations)!,
      });
      writeFileSync(join(dir.path, "shards", String(at + 1), "run-results.json"), JSON.stringify(results));
    });
    const merged = await runFlowcheck(["merge", "shards", "--out", "merged.json"], {}, undefined, dir.path);
    assert.equal(merged.code, 0, merged.stdout + merged.stderr);
    assert.match(
      merged.stdout,
      /^simulated users: .*\n {2}booking {2}3\/5 succeeded · flaky {2}pass\^1 60%, pass\^2 30%, pass\^5 0%\n {2}run {6}pass\^1 60%, pass\^2 30%, pass\^5 0%$/m,
    );
    const results = JSON.parse(readFileSync(join(dir.path, "merged.json"), "utf8")) as RunResults;
    assert.deepEqual(
      results.simulated?.scenarios.map(({ tries, successes, passK, flaky }) => ({ tries, successes, passK, flaky })),
      [{ tries: 5, successes: 3, passK: [0.6, 0.3, 0.1, 0, 0], flaky: true }],
    );
    assert.deepEqual(results.simulated?.passK, [0.6, 0.3, 0.1, 0, 0]);
  } finally {
    dir.remove();
  }
});
