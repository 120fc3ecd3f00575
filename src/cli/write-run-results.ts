import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { renderReport } from "../testing/report/html/render-report.ts";
import { environment } from "../config.ts";
import { plannedRun } from "../testing/report/current-run.ts";
import { secretsOf } from "../testing/report/without-secrets.ts";
import { runResultsOf, type RunInfo } from "../testing/report/merge-run-results.ts";
import type { RunRecordLine, RunResults } from "../testing/report/run-results.ts";
import type { StrengthResults } from "../testing/strength/strength-results.ts";
import { renderRunSummary } from "../testing/report/render-run-summary.ts";

/** The name of a run's merged results in its artifacts folder. */
export const RUN_RESULTS = "run-results.json";
/** The name of a run's HTML page, beside its results. */
export const RUN_REPORT = "report.html";
/** The name of a run's flow coverage, beside its results: what its scenarios reached of each flow. */
export const FLOW_COVERAGE = "flow-coverage.json";

/** Writes `results` (with a strength run's) as the HTML page `out`, every secret of the run's environment (else the process's) redacted. */
export function writeReport(out: string, results: RunResults, compare?: RunResults, strength?: StrengthResults): void {
  const shown = { ...(compare ? { compare } : {}), ...(strength ? { strength } : {}) };
  writeFileSync(
    out,
    renderReport(results, { ...shown, secrets: secretsOf(plannedRun()?.environment ?? environment()) }),
  );
}

/** The commit checked out here, when this is a git checkout with git on the PATH. */
export function commitOf(): string | undefined {
  try {
    return (
      execFileSync("git", ["rev-parse", "HEAD"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim() ||
      undefined
    );
  } catch {
    return undefined;
  }
}

/**
 * Writes a run's `lines` as `<folder>/run-results.json`, renders it as `<folder>/report.html`, and
 * prints its summary: what a run that played nothing (an empty shard) leaves, so that both files
 * always belong to the last run. A run that plays has its reporters write them from its events.
 */
export function writeRunResults(
  folder: string,
  lines: readonly RunRecordLine[],
  info: Omit<RunInfo, "commit">,
): RunResults {
  const commit = commitOf();
  const results = runResultsOf(lines, { ...info, ...(commit ? { commit } : {}) });
  mkdirSync(folder, { recursive: true });
  const out = join(folder, RUN_RESULTS);
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  const report = join(folder, RUN_REPORT);
  writeReport(report, results);
  console.log(renderRunSummary(results, { everyTable: false, files: { results: out, report } }).join("\n"));
  return results;
}
