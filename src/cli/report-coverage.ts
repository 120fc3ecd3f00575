import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { coverageLines, mergeCoverage, type FlowCoverage } from "../testing/report/flow-coverage.ts";

/** Merges a run's coverage `files` (removing them) into `<folder>/flow-coverage.json`, prints a line per flow, and returns it. */
export function reportCoverage(files: string[], folder: string): FlowCoverage {
  const merged: FlowCoverage = {};
  for (const file of files) {
    mergeCoverage(merged, JSON.parse(readFileSync(file, "utf8")) as FlowCoverage);
    rmSync(file, { force: true });
  }
  const out = join(folder, "flow-coverage.json");
  writeFileSync(out, `${JSON.stringify(merged, null, 2)}\n`);
  console.log(`\nflow coverage, from the scenarios' stored sessions (${out}):`);
  for (const line of coverageLines(merged)) console.log(`  ${line}`);
  return merged;
}
