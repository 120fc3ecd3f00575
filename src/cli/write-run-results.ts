import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { renderReport } from "../testing/report/html/render-report.ts";
import type { RunResults } from "../testing/report/run-results.ts";
import type { StrengthResults } from "../testing/strength/strength-results.ts";

/** The name of a run's merged results in its artifacts folder. */
export const RUN_RESULTS = "run-results.json";
/** Where a run's results are when a command is given none: the last `flowcheck test`'s. */
export const DEFAULT_RESULTS = `test/.tmp/${RUN_RESULTS}`;
/** The name of a run's HTML page, beside its results. */
export const RUN_REPORT = "report.html";
/** The name of a run's flow coverage, beside its results: what its scenarios reached of each flow. */
export const FLOW_COVERAGE = "flow-coverage.json";

/**
 * Writes `results` (with an older run's to compare, a strength run's) as the HTML page `out`,
 * every one of `secrets` (`secretsOf` the environment) redacted.
 */
export function writeReport(
  out: string,
  results: RunResults,
  { compare, strength, secrets }: { compare?: RunResults; strength?: StrengthResults; secrets: readonly string[] },
): void {
  const shown = { ...(compare ? { compare } : {}), ...(strength ? { strength } : {}) };
  writeFileSync(out, renderReport(results, { ...shown, secrets }));
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
