import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { isScenarioPath, missingPaths, specsUnder } from "../../src/cli/spec-files.ts";
import { tempDir } from "../support/temp-path.ts";

test("the spec files under a folder are found at any depth, sorted, leaving out scratch, bench, fixture and package folders", async () => {
  const dir = await tempDir("spec-files");
  try {
    const files = [
      "b.spec.ts",
      "a/deep/c.spec.ts",
      "a/d.spec.ts",
      "not-a-spec.ts",
      "e.spec.js",
      "stories/team/f.scenario.json",
    ];
    const skipped = [
      ".tmp/x.spec.ts",
      "bench/y.spec.ts",
      "fixtures/z.spec.ts",
      "node_modules/pkg/w.spec.ts",
      "a/fixtures/v.spec.ts",
    ];
    for (const file of [...files, ...skipped]) {
      mkdirSync(join(dir.path, file, ".."), { recursive: true });
      writeFileSync(join(dir.path, file), "");
    }
    assert.deepEqual(
      specsUnder(dir.path),
      ["a/d.spec.ts", "a/deep/c.spec.ts", "b.spec.ts"].map((file) => join(dir.path, file)),
    );
    assert.deepEqual(specsUnder(join(dir.path, "b.spec.ts")), [join(dir.path, "b.spec.ts")], "a file is itself");
    assert.equal(isScenarioPath(dir.path), false, "a folder with specs is a spec path");
    assert.equal(isScenarioPath(join(dir.path, "stories")), true, "a folder without specs is a scenario path");
    assert.equal(isScenarioPath(join(dir.path, "stories/team/f.scenario.json")), true, "so is a JSON file");
    assert.deepEqual(missingPaths([dir.path, join(dir.path, "gone")]), [join(dir.path, "gone")]);
  } finally {
    dir.remove();
  }
});
