import { resolve } from "node:path";
import { run } from "node:test";
import type { Config } from "../config.ts";
import type { TargetConfig } from "../testing/target/target-config.ts";
import { RunArbiter } from "../testing/limits/run-arbiter.ts";
import type { CurrentRun } from "../testing/report/current-run.ts";
import { RunRecord } from "../testing/report/run-record.ts";
import type { ScenarioCatalog } from "../testing/scenario/scenario-catalog.ts";
import { servedApps } from "../testing/target/served-model.ts";
import type { RunRequest } from "./run-arguments.ts";

/** Where a run writes its results, report and transcripts. */
export const ARTIFACTS = "test/.tmp";

// How long conversations wait for the specs to be imported, so that the longest of all is granted
// first: node:test imports every file before it runs a test, and a file that hangs while loading
// costs the run no more than this.
const DEFINING_MILLIS = 30_000;

export interface Plan {
  files: string[];
  /** The scenario paths the run is narrowed to; undefined: every file. */
  scenarioPaths?: string[] | undefined;
  /** The scenario files no spec describes, played against their targets or the project's flows by TARGET_SCENARIOS. */
  targetScenarios?: string[];
}

/** What a run is configured with: the command line, the environment read once, it checked, flowcheck.config.json's targets. */
export interface RunSettings {
  readonly request: RunRequest;
  readonly environment: Readonly<Record<string, string>>;
  readonly config: Config;
  readonly targets: TargetConfig | undefined;
}

/** The run flowcheck test plays, as every spec node:test imports sees it: its record is always kept. */
export type PlayedRun = CurrentRun & { readonly record: RunRecord };

/** node:test's events of the specs a process plays, to whoever reports them; resolves once they are told. */
export type TestEventSink = (events: ReturnType<typeof run>) => Promise<void>;

/**
 * The run `settings` ask for and `plan` narrows, planned once: what every suite it imports reads.
 * A worker's `logTag` names the logs of the apps it starts, beside those of the run's other processes.
 */
export function plannedRunOf(
  settings: RunSettings,
  plan: Plan,
  scenarios: ScenarioCatalog,
  logTag?: string,
): PlayedRun {
  const { request, environment, config, targets } = settings;
  const scope = Object.freeze({
    artifactsDir: ARTIFACTS,
    scenarioPaths: plan.scenarioPaths,
    repeat: request.repeat,
    filtered: filteredOf(request),
    ...(plan.targetScenarios ? { targetScenarios: plan.targetScenarios } : {}),
  });
  return Object.freeze({
    environment,
    config,
    targets: () => targets,
    scope,
    record: new RunRecord(scope),
    arbiter: new RunArbiter(),
    graphsAsked: new WeakMap(),
    startedApps: servedApps({ env: environment, logDir: ARTIFACTS, ...(logTag ? { logTag } : {}) }, config.flowModel),
    scenarios,
  });
}

/** Whether node:test's filters (name patterns, `only`) may leave some of the run's tests unrun. */
export function filteredOf(request: RunRequest): boolean {
  return Boolean(request.namePatterns || request.skipPatterns || request.only);
}

/**
 * Plays `files` with node:test in this process, `planned` the current run of every spec it imports,
 * its events to `report` and failed imports into the run's record; whether every test passed.
 */
export async function playSpecs(
  files: readonly string[],
  request: RunRequest,
  planned: PlayedRun,
  report: TestEventSink,
): Promise<boolean> {
  const absolute = new Map(files.map((file) => [resolve(file), file]));
  const { arbiter, record } = planned;
  arbiter.awaitDefinitions(DEFINING_MILLIS);
  const events = run({
    files: [...absolute.keys()],
    isolation: "none",
    concurrency: request.concurrency,
    only: request.only,
    ...(request.namePatterns ? { testNamePatterns: request.namePatterns } : {}),
    ...(request.skipPatterns ? { testSkipPatterns: request.skipPatterns } : {}),
    ...(request.timeout !== undefined ? { timeout: request.timeout } : {}),
  });
  let success = true;
  // node:test has imported every spec once it queues its first test: every conversation has asked for its slot.
  events.once("test:enqueue", () => arbiter.defined());
  events.on("test:fail", (data) => {
    const file = data.nesting === 0 ? absolute.get(data.name) : undefined;
    if (file === undefined) return;
    const cause = (data.details.error as Error).cause ?? data.details.error;
    const message = cause instanceof Error ? cause.message : String(cause);
    record.emit({ type: "spec:not-loaded", data: { file, message } });
  });
  events.on("test:summary", (data) => {
    if (data.file === undefined) success &&= data.success;
  });
  await report(events);
  return success;
}
