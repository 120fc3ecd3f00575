import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { mergeCoverage, type FlowCoverage } from "../testing/report/flow-coverage.ts";

/** The name of a run's merged flow coverage in its artifacts folder. */
export const FLOW_COVERAGE = "flow-coverage.json";

/**
 * Merges a run's coverage `files` (removing them) into `<folder>/flow-coverage.json`, and returns
 * it; the run's summary prints it, a line per flow (render-run-summary.ts).
 */
export function reportCoverage(files: string[], folder: string): FlowCoverage {
  const merged: FlowCoverage = {};
  for (const file of files) {
    mergeCoverage(merged, JSON.parse(readFileSync(file, "utf8")) as FlowCoverage);
    rmSync(file, { force: true });
  }
  writeFileSync(join(folder, FLOW_COVERAGE), `${JSON.stringify(merged, null, 2)}\n`);
  return merged;
}
