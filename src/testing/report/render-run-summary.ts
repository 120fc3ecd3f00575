import { checklistCounts, checklistRows, hasMissing, MARKS_LEGEND } from "./render-checklist.ts";
import { coverageInOrder, reachOf, type FlowCoverage } from "./flow-coverage.ts";
import { judgeCalibrationText } from "./judge-calibration-text.ts";
import { simulatedLines } from "./render-simulated.ts";
import type { FlowChecklist, RunResults } from "./run-results.ts";
import { unstableLine, unstableVerdicts } from "./unstable-verdicts.ts";

export interface RunSummaryOptions {
  /** Every judged flow's checklist table (flowcheck test's `--checklist`), not only those of flows with a point to add. */
  everyTable?: boolean;
  /** Where the run's results and page were written, and its flow coverage when it has one. */
  files: { results: string; report: string; coverage?: string };
}

/** A run's totals in one line: conversations and turns by outcome, the judge and the tokens. */
export function totalsLine(results: RunResults): string {
  const { conversations, turns, judge, tokens } = results.totals;
  const rate =
    judge.passRate === null
      ? "none graded"
      : `${judge.passed} of ${judge.graded} passed (${Math.round(judge.passRate * 100)}%)`;
  return (
    `${conversations.total} conversation${conversations.total === 1 ? "" : "s"}: ${conversations.passed} passed, ${conversations.failed} failed, ${conversations.skipped} skipped; ` +
    `turns ${turns.passed} passed, ${turns.failed} failed, ${turns.skipped} skipped; judge ${rate}; tokens ${tokens.total}` +
    (tokens.user ? ` (simulated users ${tokens.user.input + tokens.user.output})` : "")
  );
}

export interface FlowRow {
  flow: string;
  child: boolean;
  coverage: FlowCoverage[string] | undefined;
  checklist: FlowChecklist | undefined;
}

/** Every flow the run has coverage or a checklist of: the checklist's flows in its order, then the others, each followed by its children. */
export function flowRows(coverage: FlowCoverage, checklist: readonly FlowChecklist[]): FlowRow[] {
  const rows: FlowRow[] = checklist.map((entry) => ({
    flow: entry.flow,
    child: entry.childOf !== undefined,
    coverage: coverage[entry.flow],
    checklist: entry,
  }));
  const listed = new Set(rows.map((row) => row.flow));
  for (const [flow, entry] of coverageInOrder(coverage))
    if (!listed.has(flow))
      rows.push({ flow, child: entry.childOf !== undefined, coverage: entry, checklist: undefined });
  return rows;
}

/**
 * The lines a run ends with: its totals and its unstable verdicts, one line per flow and child flow (the steps and tools its
 * scenarios reached, and its new-flow checklist counted), then where its results and page are.
 * A flow's full checklist table follows its line when one of its points is to add (✗), or for every
 * judged flow with `everyTable`; the whole of every table is in the results and the page. A run
 * with simulated users has their successes and pass^k before the files, and the committed judge
 * calibration (or, for a run that judged without one, how to make it) comes after the flows.
 *
 * @example
 * renderRunSummary(results, { files: { results: "test/.tmp/run-results.json", report: "test/.tmp/report.html" } });
 * // ["", "1 conversation: 1 passed, …", "flows: …", "  BasicFlow       3/3 steps · 3/3 tools · checklist 13 ✓, 2 not in this run", …]
 */
export function renderRunSummary(results: RunResults, { everyTable = false, files }: RunSummaryOptions): string[] {
  const rows = flowRows(results.coverage ?? {}, results.checklist ?? []);
  const shown = (row: FlowRow) =>
    row.checklist !== undefined && row.checklist.judged && (everyTable || hasMissing(row.checklist));
  const width = Math.max(0, ...rows.map((row) => row.flow.length + (row.child ? 2 : 0)));
  const lines = ["", totalsLine(results), ...unstableLines(results)];
  if (rows.length) {
    const about = results.checklist?.length
      ? `, and the new-flow checklist (${rows.some(shown) ? MARKS_LEGEND : "--checklist prints every point"})`
      : "";
    lines.push(`flows: the steps and tools the scenarios reached${about}:`);
  }
  for (const row of rows) {
    const indent = row.child ? "    " : "  ";
    const reach = row.coverage ? reachOf(row.coverage) : { reached: "not played", never: [] };
    // What was never reached is named once: by the table's steps and tools points when it is shown.
    const parts = [
      reach.reached,
      ...(row.checklist ? [`checklist ${checklistCounts(row.checklist)}`] : []),
      ...(shown(row) ? [] : reach.never),
    ];
    lines.push(`${indent}${row.flow.padEnd(width - indent.length + 2)}  ${parts.join(" · ")}`);
    if (row.checklist && shown(row)) lines.push(...checklistRows(row.checklist).map((point) => `${indent}  ${point}`));
  }
  lines.push(...judgeCalibrationLines(results), ...simulatedLines(results.simulated), ...recordedLines(results));
  lines.push(
    `results: ${files.results}${files.coverage ? ` (flow coverage: ${files.coverage})` : ""}`,
    `report:  ${files.report}`,
  );
  return lines;
}

/** The verdicts whose samples disagreed (`JUDGE_SAMPLES` above 1), counted, then each on its line. */
export function unstableLines({ conversations }: RunResults): string[] {
  const unstable = unstableVerdicts(conversations);
  if (unstable.length === 0) return [];
  const count = `${unstable.length} unstable verdict${unstable.length === 1 ? "" : "s"}`;
  return [
    `judge: ${count}, the samples disagreed (JUDGE_UNSTABLE=fail fails them):`,
    ...unstable.map((verdict) => `  ${unstableLine(verdict)}`),
  ];
}

/**
 * The cassettes the run recorded: saved ones are new files to commit (CI, which never records,
 * replays them); a failed FLOW_MODEL=auto recording was not saved, and the next run records it again.
 */
function recordedLines({ conversations }: RunResults): string[] {
  const [saved, dropped] = [true, false].map((wanted) =>
    conversations.flatMap(({ recorded }) => (recorded?.saved === wanted ? [recorded.cassette] : [])),
  );
  return [
    ...(saved!.length ? [`cassettes recorded, to commit: ${saved!.join(", ")}`] : []),
    ...(dropped!.length
      ? [`cassettes not saved, their conversations failed (FLOW_MODEL=auto records them again): ${dropped!.join(", ")}`]
      : []),
  ];
}

/** How far the run's judge agrees with people, from the committed calibration. */
function judgeCalibrationLines(results: RunResults): string[] {
  const text = judgeCalibrationText(results);
  return text === undefined ? [] : [`judge calibration: ${text}`];
}
