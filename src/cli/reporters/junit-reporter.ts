import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { renderJunit } from "../../testing/report/render-junit.ts";
import { collectRun } from "../../testing/report/run-results-reducer.ts";
import type { RunReporter } from "../../testing/report/run-event.ts";
import type { ReporterContext } from "./reporter-context.ts";

/** `junit`: the run's results as JUnit XML, a testsuite per conversation, to `destination` (test/.tmp/junit.xml). */
export function junitReporter(context: ReporterContext, destination?: string): RunReporter {
  return async (events) => {
    const { results, problem } = await collectRun(events);
    // A run that played nothing has no testsuite to write.
    if (problem) return;
    const out = destination ?? join(context.artifactsDir, "junit.xml");
    mkdirSync(dirname(resolve(out)), { recursive: true });
    writeFileSync(out, renderJunit(results));
    console.log(`junit:   ${relative(".", out)}`);
  };
}
