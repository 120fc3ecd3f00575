import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import type { RunResults } from "../../src/testing/report/run-results.ts";
import { sampleConversation, sampleRunResults, sampleTurn } from "../support/sample-run-results.ts";
import { tempDir } from "../support/temp-path.ts";
import { type ChildRun, runFlowcheck } from "../support/child-run.ts";

let dir: { path: string; remove(): void };

function report(...args: string[]): Promise<ChildRun> {
  return runFlowcheck(["report", ...args], {}, undefined, dir.path);
}

function writeResults(path: string, results: RunResults): void {
  mkdirSync(join(dir.path, path, ".."), { recursive: true });
  writeFileSync(join(dir.path, path), JSON.stringify(results));
}

const read = (path: string) => readFileSync(join(dir.path, path), "utf8");

before(async () => {
  dir = await tempDir("report-cli");
  const failing = sampleConversation("checkout", [
    sampleTurn(1, {
      outcome: "failed",
      checks: [{ contract: "persisted", name: "expectedActiveStep", outcome: "failed", message: "wrong step" }],
    }),
  ]);
  writeResults(
    join("shards", "1", "run-results.json"),
    sampleRunResults([failing], {
      shards: ["1/2"],
      coverage: { BasicFlow: { scenarios: 1, steps: { NameStep: true, AddressStep: false }, tools: {} } },
    }),
  );
  writeResults(
    join("shards", "2", "run-results.json"),
    sampleRunResults([sampleConversation("greeting", [sampleTurn(1)])], {
      shards: ["2/2"],
      coverage: { BasicFlow: { scenarios: 1, steps: { NameStep: false, AddressStep: true }, tools: {} } },
    }),
  );
  writeResults("older.json", sampleRunResults([sampleConversation("checkout", [sampleTurn(1)])]));
});

after(() => dir.remove());

test("npm run report merges the shards under a folder into one page, their coverage merged, written to --out", async () => {
  const child = await report("shards", "--out", join("site", "index.html"));
  assert.equal(child.code, 0, child.stderr);
  assert.match(
    child.stdout,
    /^report of 2 result files \(2 conversations: 1 passed, 1 failed, 0 skipped; .*\): site\/index\.html$/m,
  );
  const page = read(join("site", "index.html"));
  assert.match(page, /<span class="name">checkout<\/span>/);
  assert.match(page, /<span class="name">greeting<\/span>/);
  assert.match(page, /<h3>BasicFlow <span class="facts">2 scenarios<\/span> <span class="facts">steps 2 of 2<\/span>/);
  assert.match(page, /<dt>shards<\/dt><dd>1\/2, 2\/2<\/dd>/);
});

test("--compare puts what changed since the older run at the top, the turns that moved under it; the default page is test/.tmp/report.html", async () => {
  const child = await report(join("shards", "1", "run-results.json"), "--compare", "older.json");
  assert.equal(child.code, 0, child.stderr);
  const page = read(join("test", ".tmp", "report.html"));
  assert.match(
    page,
    /<tr class="worse"><td>checkout › turn 1<\/td><td><span class="passed">✓ passed<\/span><\/td><td><span class="failed">✗ failed<\/span><\/td><\/tr>/,
  );
  assert.match(
    page,
    /<div class="change-group" data-group="newly failing"><h3>Newly failing <span class="facts">1<\/span><\/h3><ul><li><span class="name">BasicFlow: checkout<\/span>/,
  );
  const changes = page.indexOf('<section class="panel changes-panel">');
  assert.ok(changes > page.indexOf("</header>") && changes < page.indexOf('<details class="conversation'));
});

test("a file that is not a results file, a missing one and an unknown option are refused with exit 2 and nothing written", async () => {
  writeFileSync(join(dir.path, "other.json"), JSON.stringify({ results: 99 }));
  const cases: [string[], RegExp][] = [
    [
      ["other.json", "--out", "bad.html"],
      /^flowcheck report: other\.json is not a flowcheck results file of version 1 \(it says "results": 99\); .* \(results_invalid\)$/m,
    ],
    [
      ["absent.json", "--out", "bad.html"],
      /^flowcheck report: absent\.json: no such file or folder; give a run-results\.json or a folder holding one\. \(results_invalid\)$/m,
    ],
    [
      ["shards", "--out", "bad.html", "--compare", "other.json"],
      /other\.json is not a flowcheck results file .*\(results_invalid\)$/m,
    ],
    [["shards", "--pages", "x"], /^flowcheck report: unknown option --pages; the options are --out and --compare\.$/m],
  ];
  for (const [args, message] of cases) {
    const child = await report(...args);
    assert.equal(child.code, 2, `${args.join(" ")}: ${child.stdout}`);
    assert.match(child.stderr, message);
  }
  assert.equal(existsSync(join(dir.path, "bad.html")), false);
});

test("a strength run's results beside the run's are shown on its page; a run without them has no strength section", async () => {
  writeResults(
    join("with-strength", "run-results.json"),
    sampleRunResults([sampleConversation("greeting", [sampleTurn(1)])]),
  );
  writeFileSync(
    join(dir.path, "with-strength", "strength-results.json"),
    JSON.stringify({
      strength: 1,
      startedAt: "2026-12-01T11:00:00.000Z",
      millis: 1200,
      scores: [{ flow: "BasicFlow", score: 0.75, killed: 3, survived: 1, timedOut: 0, equivalent: 0, notReached: 0 }],
      mutants: [],
      scenarios: ["greeting"],
      failing: [],
      notMeasurable: [],
    }),
  );
  const child = await report(join("with-strength", "run-results.json"), "--out", "strength.html");
  assert.equal(child.code, 0, child.stderr);
  assert.match(read("strength.html"), /<h2>Scenario strength .*<tr><td>BasicFlow<\/td><td>0\.75<\/td>/);
  const plain = await report(join("shards", "1", "run-results.json"), "--out", "plain.html");
  assert.equal(plain.code, 0, plain.stderr);
  assert.doesNotMatch(read("plain.html"), /Scenario strength/);
});
