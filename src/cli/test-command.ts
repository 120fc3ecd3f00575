import { existsSync } from "node:fs";
import { extname, resolve } from "node:path";
import { run } from "node:test";
import type { Config } from "../config.ts";
import { isFlowcheckError } from "../errors.ts";
import { chooseTarget } from "../testing/target/choose-target.ts";
import type { FlowEntry } from "../engine/index.ts";
import { loadProjectFlows } from "../testing/target/project-flows.ts";
import { loadTargetConfig, type TargetConfig } from "../testing/target/target-config.ts";
import { RunArbiter } from "../testing/limits/run-arbiter.ts";
import { limitsSummaryLines } from "../testing/limits/limits-summary.ts";
import { strictFailures } from "../testing/report/render-checklist.ts";
import { withRun, type CurrentRun } from "../testing/report/current-run.ts";
import { secretsOf } from "../testing/report/without-secrets.ts";
import type { RunBegin, RunProblem } from "../testing/report/run-event.ts";
import { RunRecord } from "../testing/report/run-record.ts";
import { ScenarioCatalog } from "../testing/scenario/scenario-catalog.ts";
import { loadReporters, runReporters } from "./reporters/run-reporters.ts";
import type { ReporterContext } from "./reporters/reporter-context.ts";
import { commitOf } from "./write-run-results.ts";
import { commandConfig } from "./command-config.ts";
import { isPlanProblem, type PlanProblem } from "./plan-problem.ts";
import { ArgumentError, moduleSpecifier, runRequestOf, USAGE, withoutWatch, type RunRequest } from "./run-arguments.ts";
import { checklistOf, typecheckProof } from "./run-checklist.ts";
import { shardOf } from "./shard-scenarios.ts";
import { isScenarioPath, missingPaths, runPathsOf } from "./spec-files.ts";
import { specsForScenarios } from "./specs-for-scenarios.ts";
import { testReporters } from "./test-reporters.ts";
import { watchTests } from "./watch-tests.ts";

/** Where a run writes its results, report and transcripts. */
const ARTIFACTS = "test/.tmp";

// How long conversations wait for the specs to be imported, so that the longest of all is granted
// first: node:test imports every file before it runs a test, and a file that hangs while loading
// costs the run no more than this.
const DEFINING_MILLIS = 30_000;

interface Plan {
  files: string[];
  /** The scenario paths the run is narrowed to; undefined: every file. */
  scenarioPaths?: string[] | undefined;
  /** The scenario files no spec describes, played against their targets or the project's flows by TARGET_SCENARIOS. */
  targetScenarios?: string[];
}

/** The runner's own spec module, which plays the scenario files no spec describes against their targets or the project's flows. */
// Named with this file's own extension: .ts in this repository, .js in the package's build.
const TARGET_SCENARIOS = resolve(import.meta.dirname, `target-scenarios${extname(import.meta.filename)}`);

/**
 * The spec files `request` runs and the scenarios it narrows them to, `projectFlows` being the names
 * of the flows flowcheck.config.json names; else the problem that says why nothing runs.
 */
function planOf(
  request: RunRequest,
  flowTarget: string | undefined,
  projectFlows: readonly string[],
  catalog: ScenarioCatalog,
): Plan | PlanProblem {
  const { scenarioPaths, specFiles } = runPathsOf(request.paths);
  let plan: Plan = { files: specFiles };
  let targetScenarios: string[] = [];
  if (scenarioPaths.length) {
    const found = specsForScenarios(plan.files, scenarioPaths, flowTarget, projectFlows, catalog);
    if (isPlanProblem(found)) return found;
    plan = { files: found.specs, scenarioPaths };
    targetScenarios = found.targetScenarios;
  }
  if (request.shard) {
    const { index, total } = request.shard;
    const sharded = shardOf(plan.files, scenarioPaths, request.shard, flowTarget, projectFlows, catalog);
    if (isPlanProblem(sharded)) return sharded;
    targetScenarios = sharded.targetScenarios ?? [];
    if (sharded.files.length + targetScenarios.length === 0) {
      const nothing = `flowcheck test: shard ${index}/${total} has nothing to run (${sharded.scenarios} scenario files in ${total} shards).`;
      return { problem: [nothing], exitCode: 0 };
    }
    plan = { files: sharded.files, ...(sharded.scenarioPaths.length ? { scenarioPaths: sharded.scenarioPaths } : {}) };
  }
  // The runner's own module plays the files no spec describes, after the specs.
  if (targetScenarios.length) plan = { ...plan, files: [...plan.files, TARGET_SCENARIOS], targetScenarios };
  if (plan.files.length === 0) {
    return {
      problem: [`flowcheck test: no *.spec.ts under ${request.paths.join(", ")}; nothing to run.`],
      exitCode: 1,
    };
  }
  return plan;
}

/**
 * Plays `files` with node:test in this process, `planned` the current run of every spec it imports,
 * its events to `request`'s node:test reporters and failed imports into the run's record; whether
 * every test passed.
 */
async function playSpecs(files: readonly string[], request: RunRequest, planned: PlayedRun): Promise<boolean> {
  const reporters = await testReporters(request.reporters);
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
  await reporters(events);
  return success;
}

/** The run flowcheck test plays, as every spec node:test imports sees it: its record is always kept. */
type PlayedRun = CurrentRun & { readonly record: RunRecord };

/** What the built-in reporters are given besides the events. */
function reporterContext(run: PlayedRun, request: RunRequest, config: Config): ReporterContext {
  return {
    artifactsDir: ARTIFACTS,
    everyTable: request.everyTable,
    github: config.github,
    secrets: secretsOf(run.environment),
    limitsLines: () => limitsSummaryLines(run.arbiter.summary()),
  };
}

/**
 * Hands `record`'s events to the reporters `request` asks for, its `--import` modules loaded first
 * (a team's reporter may need them); `reported` resolves to whether every reporter finished.
 */
async function startReporters(
  request: RunRequest,
  context: ReporterContext,
  record: RunRecord,
): Promise<{ reported: Promise<boolean> }> {
  for (const module of request.imports) await import(moduleSpecifier(module));
  const reporters = await loadReporters(request.runReporters, context);
  return { reported: runReporters(reporters, () => record.reader()) };
}

/**
 * A run that stops before anything plays, told to the reporters as a `run:problem` between its
 * begin and its end: the summary prints why, and an empty shard still leaves its results. Resolves
 * to the problem's exit code (1 at least when a reporter failed).
 */
async function reportProblem(request: RunRequest, problem: PlanProblem, begin: RunBegin): Promise<number> {
  const record = new RunRecord({ artifactsDir: ARTIFACTS });
  // Nothing played, so the page (an empty shard's) has no conversation to hide a secret in.
  const context = {
    artifactsDir: ARTIFACTS,
    everyTable: request.everyTable,
    github: { annotations: false },
    secrets: [],
  };
  const { reported } = await startReporters(request, { ...context, limitsLines: () => [] }, record);
  const data: RunProblem = { lines: [...problem.problem], exitCode: problem.exitCode };
  record.emit({ type: "run:begin", data: begin });
  record.emit({ type: "run:problem", data });
  record.end({ endedAt: new Date().toISOString(), passed: problem.exitCode === 0 });
  return (await reported) ? problem.exitCode : Math.max(problem.exitCode, 1);
}

/**
 * Plays the planned `run` as one: its events, from its begin to its end, handed to the default
 * reporters and those `request` adds (the results, the summary, the checklist, the page, JUnit on
 * request). Resolves to the exit code: 1 when a test failed, a strict checklist point is missing or
 * a reporter failed.
 */
async function playRun(
  run: PlayedRun,
  { request, config, flows }: CheckedRequest,
  plan: Plan,
  begin: RunBegin,
): Promise<number> {
  const { record } = run;
  const { reported } = await startReporters(request, reporterContext(run, request, config), record);
  record.emit({ type: "run:begin", data: begin });
  const passed = await playSpecs(plan.files, request, run);
  record.close();
  for (const proof of typecheckProof(request.typechecked)) record.emit({ type: "proof", data: proof });
  const sofar = record.results();
  // The project's flows, for the checklist: only a run that played conversations has one.
  const checklist = checklistOf(sofar, sofar.conversations.length ? flows : []);
  record.end({ endedAt: new Date().toISOString(), passed, ...(checklist ? { checklist } : {}) });
  const reportersFinished = await reported;
  const checklistFailed = strictFailures(checklist ?? []).length > 0;
  return passed && !checklistFailed && reportersFinished ? 0 : 1;
}

/**
 * `flowcheck test`: the flow suites and the project's specs, played by node:test in this one
 * process, their events handed to the run's reporters: the results (`test/.tmp/run-results.json`),
 * the summary, the checklist, the page, JUnit on request, a team's own. Resolves to the exit code.
 * What stops the run before anything plays (a path that is not there, a configuration that does not
 * read, nothing to run, an empty shard) is told to the same reporters. With --watch, those runs again on every save, each in a child process (`watchTests`).
 */
export async function testCommand(args: readonly string[]): Promise<number> {
  const startedAt = new Date().toISOString();
  const parsed = requestOf(args);
  if (typeof parsed === "number") return parsed;
  const commit = commitOf();
  const shard = parsed.shard ? { shard: `${parsed.shard.index}/${parsed.shard.total}` } : {};
  const begin: RunBegin = {
    startedAt,
    ...(commit ? { commit } : {}),
    ...shard,
    files: [],
    filtered: filteredOf(parsed),
  };
  const asked = locatedRequestOf(parsed);
  if (isPlanProblem(asked)) return reportProblem(parsed, asked, begin);
  if (asked.watch) return watchTests(asked, withoutWatch(args));
  const checked = await checkedRequestOf(asked);
  if (isPlanProblem(checked)) return reportProblem(asked, checked, begin);
  const { request, config, flows } = checked;
  // The scenario files are found once, here, and every spec the run imports takes them from the run.
  const scenarios = new ScenarioCatalog();
  const plan = planOf(
    request,
    config.flowTarget,
    flows.map((entry) => entry.flow.name),
    scenarios,
  );
  if (isPlanProblem(plan)) return reportProblem(request, plan, begin);
  const run = plannedRunOf(checked, plan, scenarios);
  return withRun(run, () =>
    playRun(run, checked, plan, {
      ...begin,
      files: plan.files,
      ...(plan.scenarioPaths ? { scenarioPaths: plan.scenarioPaths } : {}),
      ...(plan.targetScenarios ? { targetScenarios: plan.targetScenarios } : {}),
      ...(request.repeat !== undefined ? { repeat: request.repeat } : {}),
    }),
  );
}

/** The run `checked` asks for and `plan` narrows, planned once: what every suite it imports reads. */
function plannedRunOf(checked: CheckedRequest, plan: Plan, scenarios: ScenarioCatalog): PlayedRun {
  const { request, environment, config, targets } = checked;
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
    scenarios,
  });
}

/**
 * The run a request asks for, its configuration resolved once (the environment, flowcheck.config.json's
 * targets, the command line), and the project's flows (flowcheck.config.json's "flows").
 */
interface CheckedRequest {
  readonly request: RunRequest;
  readonly environment: Readonly<Record<string, string>>;
  readonly config: Config;
  readonly targets: TargetConfig | undefined;
  readonly flows: readonly FlowEntry[];
}

/** The run `args` ask for; else the exit code, the reason printed: 0 after --help, 2 for a bad argument. */
function requestOf(args: readonly string[]): RunRequest | number {
  try {
    const request = runRequestOf(args);
    if (request) return request;
  } catch (error) {
    if (!(error instanceof ArgumentError)) throw error;
    console.error(`flowcheck test: ${error.message} See flowcheck test --help.`);
    return 2;
  }
  console.log(USAGE);
  return 0;
}

/**
 * `request` with its paths there; else why not: nothing to run (1) when no path is given and there
 * is no scenarios/, a missing path (2).
 */
function locatedRequestOf(request: RunRequest): RunRequest | PlanProblem {
  // Without a path, the project's scenarios, as `flowcheck test scenarios` runs them.
  if (request.paths.length === 0) {
    if (!existsSync("scenarios"))
      return { problem: ["flowcheck test: no path given and no scenarios/ folder here; nothing to run."], exitCode: 1 };
    return locatedRequestOf({ ...request, paths: ["scenarios"] });
  }
  // A project whose flows all run on targets may have no spec folder at all: given scenarios, a spec
  // folder that does not exist holds no specs (npm run test:flows names test/flows either way).
  const missing = missingPaths(request.paths);
  const scenariosGiven = request.paths.some((path) => !missing.includes(path) && isScenarioPath(path));
  const absent = missing.filter((path) => !scenariosGiven || /\.(json|ts)$/.test(path));
  if (absent.length) return { problem: [`flowcheck test: ${absent.join(", ")}: no such file or folder.`], exitCode: 2 };
  return { ...request, paths: request.paths.filter((path) => !missing.includes(path)) };
}

/**
 * `request` with its configuration and the project's flows, all sound; else the problem (exit 2)
 * of an invalid configuration or a flows module that does not load, before anything plays.
 */
async function checkedRequestOf(request: RunRequest): Promise<CheckedRequest | PlanProblem> {
  // FLOW_TARGET and the project's flows decide which scenarios without a spec can still be played.
  try {
    const { environment, config, targets } = checkedConfig();
    const flows = await loadProjectFlows();
    return Object.freeze({ request, environment, config, targets, flows });
  } catch (error) {
    if (!isFlowcheckError(error)) throw error;
    return {
      problem: [`flowcheck test: stopped before playing anything: ${error.code}: ${error.message}`],
      exitCode: 2,
    };
  }
}

/** Whether node:test's filters (name patterns, `only`) may leave some of the run's tests unrun. */
function filteredOf(request: RunRequest): boolean {
  return Boolean(request.namePatterns || request.skipPatterns || request.only);
}

/**
 * The run's configuration, read once: the environment, flowcheck.config.json (if the project has
 * one) and the target FLOW_TARGET names, each proved valid. Any of them invalid would fail every
 * suite with the same error, so the run stops on it once instead (`config_invalid`,
 * `target_config_invalid`).
 */
function checkedConfig(): Omit<CheckedRequest, "request" | "flows"> {
  const { environment, config } = commandConfig();
  const targets = loadTargetConfig(process.cwd(), environment);
  if (config.flowTarget !== undefined) chooseTarget(targets, undefined, config.flowTarget, "every scenario file");
  return { environment, config, targets };
}
