import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { collectRun, leavesFiles } from "../../testing/report/run-results-reducer.ts";
import { RUN_RESULTS } from "../write-run-results.ts";
import type { RunReporter } from "../../testing/report/run-event.ts";
import type { ReporterContext } from "./reporter-context.ts";

/** `results`: run-results.json, the reduction of the run's events, which merge, report and the nightly read. */
export function resultsReporter(context: ReporterContext): RunReporter {
  return async (events) => {
    const { results, problem } = await collectRun(events);
    if (!leavesFiles(problem)) return;
    mkdirSync(context.artifactsDir, { recursive: true });
    writeFileSync(join(context.artifactsDir, RUN_RESULTS), `${JSON.stringify(results, null, 2)}\n`);
  };
}
