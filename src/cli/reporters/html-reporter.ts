import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { collectRun, leavesFiles } from "../../testing/report/run-results-reducer.ts";
import { RUN_REPORT, writeReport } from "../write-run-results.ts";
import type { RunReporter } from "../../testing/report/run-event.ts";
import type { ReporterContext } from "./reporter-context.ts";

/** `html`: the run's page, report.html beside its results (or `destination`). */
export function htmlReporter(context: ReporterContext, destination?: string): RunReporter {
  return async (events) => {
    const { results, problem } = await collectRun(events);
    if (!leavesFiles(problem)) return;
    const out = destination ?? join(context.artifactsDir, RUN_REPORT);
    mkdirSync(dirname(out), { recursive: true });
    writeReport(out, results, { secrets: context.secrets });
  };
}
