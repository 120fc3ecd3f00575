import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { JudgeCalibration } from "../../src/testing/judge/judge-calibration-file.ts";
import type { RunResults } from "../../src/testing/report/run-results.ts";
import { runFlowcheck } from "../support/child-run.ts";
import { sampleConversation, sampleRunResults, sampleTurn } from "../support/sample-run-results.ts";
import { tempDir } from "../support/temp-path.ts";

/** A calibration as `flowcheck judge calibrate --write` commits it. */
function calibration(writtenAt: string, agreement: number): JudgeCalibration {
  return {
    calibration: 1,
    writtenAt,
    labelsFile: "scenarios/judge-labels.json",
    samples: 3,
    labels: 12,
    agreement,
    kappa: 0.5,
    falsePasses: [],
    falseFails: [],
    unstable: [],
    bestMinScore: { minScore: 0.6, agreement: 1 },
    perSettings: [],
    setAside: [],
  };
}

const HEADLINE_KEYS = ["agreement", "bestMinScore", "file", "kappa", "labels", "samples", "writtenAt"];

// Each test has a project of its own and runs flowcheck test in it, so they run side by side.
describe("flowcheck test keeps the committed judge calibration's headline in run-results.json", {
  concurrency: 3,
}, () => {
  /** A project with one passing spec and, when given, `scenarios/judge-calibration.json` holding `text`. */
  async function runIn(name: string, text?: string) {
    const dir = await tempDir(name);
    writeFileSync(join(dir.path, "one.spec.ts"), `import { test } from "node:test";\ntest("one passes", () => {});\n`);
    if (text !== undefined) {
      mkdirSync(join(dir.path, "scenarios"));
      writeFileSync(join(dir.path, "scenarios", "judge-calibration.json"), text);
    }
    try {
      const run = await runFlowcheck(["test", "one.spec.ts"], {}, undefined, dir.path);
      const results = JSON.parse(
        readFileSync(join(dir.path, "test", ".tmp", "run-results.json"), "utf8"),
      ) as RunResults;
      return { run, results, remove: () => dir.remove() };
    } catch (error) {
      dir.remove();
      throw error;
    }
  }

  test("a committed calibration's agreement, κ, best minScore, labels, samples and date are in the results, and nothing is warned", async () => {
    const committed = calibration("2026-12-01T09:00:00.000Z", 11 / 12);
    const { run, results, remove } = await runIn("calibrated-run", JSON.stringify(committed));
    try {
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.deepEqual(results.judgeCalibration, {
        file: "scenarios/judge-calibration.json",
        writtenAt: "2026-12-01T09:00:00.000Z",
        labels: 12,
        agreement: 11 / 12,
        kappa: 0.5,
        bestMinScore: { minScore: 0.6, agreement: 1 },
        samples: 3,
      });
      assert.deepEqual(Object.keys(results.judgeCalibration).sort(), HEADLINE_KEYS);
      assert.doesNotMatch(run.stderr, /calibrat/);
    } finally {
      remove();
    }
  });

  test("without a committed calibration the results have no judgeCalibration and nothing is warned", async () => {
    const { run, results, remove } = await runIn("uncalibrated-run");
    try {
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.equal("judgeCalibration" in results, false);
      assert.doesNotMatch(run.stderr, /calibrat/);
    } finally {
      remove();
    }
  });

  test("a calibration file that is not one is warned of in one line naming it and what to run, the run goes on, and the results have no judgeCalibration", async () => {
    for (const [name, text, why] of [
      ["broken-calibration", "{ not json", /is not JSON \(.*\)/],
      [
        "other-calibration",
        JSON.stringify({ calibration: 7, agreement: 1 }),
        /is not a judge calibration of version 1/,
      ],
    ] as const) {
      const { run, results, remove } = await runIn(name, text);
      try {
        assert.equal(run.code, 0, run.stdout + run.stderr);
        assert.equal("judgeCalibration" in results, false);
        const warnings = run.stderr.split("\n").filter((line) => line.includes("judge-calibration.json"));
        assert.equal(warnings.length, 1, run.stderr);
        assert.match(warnings[0]!, /^flowcheck test: scenarios\/judge-calibration\.json /);
        assert.match(warnings[0]!, why);
        assert.match(warnings[0]!, /run flowcheck judge calibrate --write again$/);
      } finally {
        remove();
      }
    }
  });
});

describe("flowcheck merge keeps the calibration the shards read", () => {
  let dir: { path: string; remove(): void };
  const merge = (...args: string[]) => runFlowcheck(["merge", ...args], {}, undefined, dir.path);
  const judged = (name: string) =>
    sampleConversation(name, [sampleTurn(1, { judge: { outcome: "passed", score: 0.9, minScore: 0.7 } })]);
  const headline = (writtenAt: string, agreement: number) => {
    const { labels, kappa, bestMinScore, samples } = calibration(writtenAt, agreement);
    return { file: "scenarios/judge-calibration.json", writtenAt, labels, agreement, kappa, bestMinScore, samples };
  };
  const shard = (name: string, fields: Partial<RunResults> = {}) =>
    writeFileSync(join(dir.path, `${name}.json`), JSON.stringify(sampleRunResults([judged(name)], fields)));

  before(async () => {
    dir = await tempDir("merge-calibration");
    shard("older", { judgeCalibration: headline("2026-11-20T00:00:00.000Z", 0.5) });
    shard("newer", { judgeCalibration: headline("2026-11-30T00:00:00.000Z", 0.75) });
    shard("none");
  });

  after(() => dir.remove());

  test("shards that read different calibrations merge into one keeping the newest, which the merged job summary shows", async () => {
    const child = await merge(
      "older.json",
      "newer.json",
      "none.json",
      "--out",
      "merged.json",
      "--summary",
      "summary.md",
    );
    assert.equal(child.code, 0, child.stdout + child.stderr);
    const merged = JSON.parse(readFileSync(join(dir.path, "merged.json"), "utf8")) as RunResults;
    assert.equal(merged.judgeCalibration?.writtenAt, "2026-11-30T00:00:00.000Z");
    assert.equal(merged.judgeCalibration.agreement, 0.75);
    assert.match(
      readFileSync(join(dir.path, "summary.md"), "utf8"),
      /^Judge calibration: the judge agrees with people on 75% of 12 labels \(κ 0\.50\), calibrated 2026-11-30 \(1 day before this run\)$/m,
    );
  });

  test("shards without a calibration merge into results without one, whose summary names flowcheck judge calibrate --write", async () => {
    const child = await merge("none.json", "--out", "bare.json", "--summary", "bare.md");
    assert.equal(child.code, 0, child.stdout + child.stderr);
    const merged = JSON.parse(readFileSync(join(dir.path, "bare.json"), "utf8")) as RunResults;
    assert.equal("judgeCalibration" in merged, false);
    assert.match(readFileSync(join(dir.path, "bare.md"), "utf8"), /flowcheck judge calibrate --write/);
  });
});
