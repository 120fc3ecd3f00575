import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { collectRunResults } from "../../testing/report/run-results-reducer.ts";
import { failOnChecklist } from "../run-checklist.ts";
import { FLOW_COVERAGE } from "../write-run-results.ts";
import type { RunReporter } from "../../testing/report/run-event.ts";
import type { ReporterContext } from "./reporter-context.ts";

/**
 * `checklist`: what the scenarios reached of each flow (flow-coverage.json), and the points a
 * strict checklist found missing, printed as the run's failure.
 */
export function checklistReporter(context: ReporterContext): RunReporter {
  return async (events) => {
    const results = await collectRunResults(events);
    if (results.coverage) {
      mkdirSync(context.artifactsDir, { recursive: true });
      writeFileSync(join(context.artifactsDir, FLOW_COVERAGE), `${JSON.stringify(results.coverage, null, 2)}\n`);
    }
    failOnChecklist(results);
  };
}
