import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { renderReport } from "../testing/report/html/render-report.ts";
import { environment } from "../config.ts";
import { plannedRun } from "../testing/report/current-run.ts";
import { secretsOf } from "../testing/report/without-secrets.ts";
import type { RunResults } from "../testing/report/run-results.ts";
import type { StrengthResults } from "../testing/strength/strength-results.ts";

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
