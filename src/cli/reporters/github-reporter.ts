import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { renderAnnotations } from "../../testing/report/render-annotations.ts";
import { renderSummary } from "../../testing/report/render-summary.ts";
import { collectRun } from "../../testing/report/run-results-reducer.ts";
import { RUN_REPORT } from "../write-run-results.ts";
import type { RunReporter } from "../../testing/report/run-event.ts";
import type { ReporterContext } from "./reporter-context.ts";

/**
 * `github`: on GitHub's runner, the run's Markdown summary appended to the job's
 * (`GITHUB_STEP_SUMMARY`), and its failures printed as annotations (`GITHUB_ACTIONS=true`), so
 * they show on the scenarios' lines; elsewhere nothing.
 */
export function githubReporter(context: ReporterContext): RunReporter {
  return async (events) => {
    const { results, problem } = await collectRun(events);
    // The run's output says why it played nothing.
    if (problem) return;
    const { stepSummary, annotations } = context.github;
    if (stepSummary) appendFileSync(stepSummary, renderSummary(results));
    if (!annotations) return;
    const summary = stepSummary ? "the job summary" : join(context.artifactsDir, RUN_REPORT);
    for (const line of renderAnnotations(results, summary)) console.log(line);
  };
}
