import type { RunEvent } from "../../testing/report/run-event.ts";
import type { ReporterName, RunReporterChoice } from "../reporter-names.ts";
import { moduleSpecifier } from "../run-arguments.ts";
import { checklistReporter } from "./checklist-reporter.ts";
import { githubReporter } from "./github-reporter.ts";
import { htmlReporter } from "./html-reporter.ts";
import { junitReporter } from "./junit-reporter.ts";
import { resultsReporter } from "./results-reporter.ts";
import type { RunReporter } from "../../testing/report/run-event.ts";
import type { ReporterContext } from "./reporter-context.ts";
import { summaryReporter } from "./summary-reporter.ts";
import { transcriptsReporter } from "./transcripts-reporter.ts";

/** The built-in reporters, by name. */
const BUILT_IN: Record<ReporterName, (context: ReporterContext, destination?: string) => RunReporter> = {
  summary: summaryReporter,
  results: resultsReporter,
  transcripts: transcriptsReporter,
  html: htmlReporter,
  junit: junitReporter,
  github: githubReporter,
  checklist: checklistReporter,
};

/** Today's output: what every run reports, in the order their lines print. */
const DEFAULTS: readonly ReporterName[] = ["results", "transcripts", "html", "summary", "github", "checklist"];

/** A reporter ready to be handed the events, or why it cannot be. */
export interface LoadedReporter {
  /** As the command line gave it: `junit`, `./test/slack-reporter.ts`. */
  label: string;
  reporter?: RunReporter;
  failure?: string;
}

async function moduleReporter(module: string): Promise<LoadedReporter> {
  try {
    const loaded = (await import(moduleSpecifier(module))) as { default?: unknown };
    if (typeof loaded.default !== "function")
      return { label: module, failure: "its module exports no default function to hand the events to" };
    return { label: module, reporter: loaded.default as RunReporter };
  } catch (error) {
    return { label: module, failure: (error as Error).message };
  }
}

/**
 * The defaults, then the reporters asked for (`--reporter`, `--junit`), each once: a built-in
 * asked for again with a destination writes there instead. A module is imported now, before
 * anything plays; one that does not load is carried as a failure, named when the run ends.
 */
export async function loadReporters(
  chosen: readonly RunReporterChoice[],
  context: ReporterContext,
): Promise<LoadedReporter[]> {
  const destinations = new Map<ReporterName, string | undefined>(DEFAULTS.map((name) => [name, undefined]));
  for (const choice of chosen)
    if ("name" in choice) destinations.set(choice.name, choice.destination ?? destinations.get(choice.name));
  const builtIn = [...destinations].map(([name, destination]) => ({
    label: name,
    reporter: BUILT_IN[name](context, destination),
  }));
  const modules = chosen.flatMap((choice) => ("module" in choice ? [choice.module] : []));
  return [...builtIn, ...(await Promise.all(modules.map(moduleReporter)))];
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === "object" && value !== null && Symbol.asyncIterator in value;
}

/**
 * Hands every reporter the events `reader` gives each (its own iterable), and waits for all:
 * one that throws is named in a line and the others finish. Resolves to whether every one did.
 */
export async function runReporters(
  reporters: readonly LoadedReporter[],
  reader: () => AsyncIterableIterator<RunEvent>,
): Promise<boolean> {
  const finished = reporters.map(async ({ reporter, failure }) => {
    if (!reporter) return failure;
    const events = reader();
    try {
      const output = reporter(events);
      // An async generator, as node:test's reporters are: what it yields is printed.
      if (isAsyncIterable(output)) for await (const chunk of output) process.stdout.write(String(chunk));
      else await output;
      return undefined;
    } catch (error) {
      await events.return?.();
      return error instanceof Error ? error.message : String(error);
    }
  });
  let ok = true;
  for (const [index, failure] of (await Promise.all(finished)).entries()) {
    if (failure === undefined) continue;
    ok = false;
    console.error(`flowcheck test: reporter ${reporters[index]!.label} failed: ${failure}`);
  }
  return ok;
}
