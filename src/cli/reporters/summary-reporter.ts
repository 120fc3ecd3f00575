import { join } from "node:path";
import { renderRunSummary } from "../../testing/report/render-run-summary.ts";
import { collectRun, leavesFiles } from "../../testing/report/run-results-reducer.ts";
import { FLOW_COVERAGE, RUN_REPORT, RUN_RESULTS } from "../write-run-results.ts";
import type { RunReporter } from "../../testing/report/run-event.ts";
import type { ReporterContext } from "./reporter-context.ts";

/**
 * `summary`: the closing totals, a line per flow, its checklist table, where the files are, and the
 * run's limits; for a run that stopped before playing, why (and, for an empty shard, its totals).
 */
export function summaryReporter(context: ReporterContext): RunReporter {
  return async (events) => {
    const { results, problem } = await collectRun(events);
    if (problem) for (const line of problem.lines) (problem.exitCode ? console.error : console.log)(line);
    if (!leavesFiles(problem)) return;
    const dir = context.artifactsDir;
    const files = {
      results: join(dir, RUN_RESULTS),
      report: join(dir, RUN_REPORT),
      ...(results.coverage ? { coverage: join(dir, FLOW_COVERAGE) } : {}),
    };
    console.log(renderRunSummary(results, { everyTable: context.everyTable, files }).join("\n"));
    if (!problem) for (const line of context.limitsLines()) console.log(line);
  };
}
