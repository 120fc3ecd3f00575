import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { changedRuns } from "../support/changed-runs.ts";
import { runFlowcheck } from "../support/child-run.ts";
import { tempDir } from "../support/temp-path.ts";

let dir: { path: string; remove(): void };

const merge = (...args: string[]) => runFlowcheck(["merge", ...args], {}, undefined, dir.path);

before(async () => {
  dir = await tempDir("merge-compare");
  const { older, newer } = changedRuns();
  writeFileSync(join(dir.path, "older.json"), JSON.stringify(older));
  writeFileSync(join(dir.path, "newer.json"), JSON.stringify(newer));
  writeFileSync(join(dir.path, "other.json"), JSON.stringify({ results: 99 }));
});

after(() => dir.remove());

test("flowcheck merge --compare appends a summary that starts with what changed since the older run", async () => {
  const child = await merge("newer.json", "--out", "merged.json", "--summary", "summary.md", "--compare", "older.json");
  assert.equal(child.code, 0, child.stdout + child.stderr);
  const summary = readFileSync(join(dir.path, "summary.md"), "utf8");
  assert.match(
    summary,
    /^### Changed since 2026-11-30T03:17:00\.000Z \(a1b2c3d4e5f6\)\n\n\*\*Newly failing\*\* \(1\)\n- `BasicFlow: checkout` .*\n\n\*\*Fixed\*\* \(1\)\n- `BasicFlow: greeting`\n\n\*\*Flaky\*\* \(1\)\n- `BasicFlow: booking`: 2 of 3 passed now, 3 of 3 passed before/m,
  );
});

test("a --compare file that is missing or not a results file is refused with exit 2, nothing written", async () => {
  for (const [compare, message] of [
    ["absent.json", /^flowcheck merge: cannot read absent\.json as JSON: .* \(results_invalid\)$/m],
    [
      "other.json",
      /^flowcheck merge: other\.json is not a flowcheck results file of version 1 .* \(results_invalid\)$/m,
    ],
  ] as const) {
    const child = await merge("newer.json", "--out", "refused.json", "--summary", "refused.md", "--compare", compare);
    assert.equal(child.code, 2, child.stdout + child.stderr);
    assert.match(child.stderr, message);
  }
  assert.equal(existsSync(join(dir.path, "refused.json")), false);
  assert.equal(existsSync(join(dir.path, "refused.md")), false);
});
