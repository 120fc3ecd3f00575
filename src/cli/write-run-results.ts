import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FlowCoverage } from "../testing/report/flow-coverage.ts";
import { renderReport } from "../testing/report/html/render-report.ts";
import { environment } from "../config.ts";
import { plannedRun } from "../testing/report/current-run.ts";
import { secretsOf } from "../testing/report/without-secrets.ts";
import { runResultsOf, type RunInfo } from "../testing/report/merge-run-results.ts";
import type { RunRecordLine, RunResults } from "../testing/report/run-results.ts";
import type { FlowEntry } from "../engine/index.ts";
import type { StrengthResults } from "../testing/strength/strength-results.ts";
import { renderRunSummary } from "../testing/report/render-run-summary.ts";
import { checklistOf, typecheckProof } from "./run-checklist.ts";

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
 * Writes a run's `lines` (its conversations, the specs that did not load, its proofs) as
 * `<folder>/run-results.json` with the run's coverage and new-flow checklist, renders it as
 * `<folder>/report.html`, and prints its summary: the totals, a line per flow, and where the two
 * files are (every flow's checklist table with `everyTable`, else those with a point to add).
 * Written green or red, with no conversation at all too, so both files always belong to the last
 * run. The checklist needs the registered `flows`: without them there is none.
 */
export function writeRunResults(
  folder: string,
  lines: readonly RunRecordLine[],
  info: Omit<RunInfo, "commit">,
  coverage: FlowCoverage = {},
  flows: readonly FlowEntry[] = [],
  { everyTable = false, typechecked = false }: { everyTable?: boolean; typechecked?: boolean } = {},
): RunResults {
  const commit = commitOf();
  const proofs = typecheckProof(typechecked).map((projectProof) => ({ projectProof }));
  const results = runResultsOf([...lines, ...proofs], { ...info, ...(commit ? { commit } : {}) });
  mkdirSync(folder, { recursive: true });
  if (Object.keys(coverage).length) {
    results.coverage = coverage;
    writeFileSync(join(folder, FLOW_COVERAGE), `${JSON.stringify(coverage, null, 2)}\n`);
  }
  const out = join(folder, RUN_RESULTS);
  const checklist = checklistOf(results, flows);
  if (checklist) results.checklist = checklist;
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  const report = join(folder, RUN_REPORT);
  writeReport(report, results);
  const files = { results: out, report, ...(results.coverage ? { coverage: join(folder, FLOW_COVERAGE) } : {}) };
  console.log(renderRunSummary(results, { everyTable, files }).join("\n"));
  return results;
}
