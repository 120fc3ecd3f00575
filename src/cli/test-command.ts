import { existsSync } from "node:fs";
import { extname, resolve } from "node:path";
import type { Config } from "../config.ts";
import { isFlowcheckError } from "../errors.ts";
import { chooseTarget } from "../testing/target/choose-target.ts";
import type { FlowEntry } from "../engine/index.ts";
import { loadProjectFlows } from "../testing/target/project-flows.ts";
import { loadTargetConfig } from "../testing/target/target-config.ts";
import { limitsSummaryLines } from "../testing/limits/limits-summary.ts";
import { strictFailures } from "../testing/report/render-checklist.ts";
import { withRun } from "../testing/report/current-run.ts";
import { judgeCalibrationHeadline } from "../testing/report/judge-calibration-headline.ts";
import { secretsOf } from "../testing/report/without-secrets.ts";
import type { RunBegin, RunProblem } from "../testing/report/run-event.ts";
import { RunRecord } from "../testing/report/run-record.ts";
import { ScenarioCatalog } from "../testing/scenario/scenario-catalog.ts";
import { loadReporters, runReporters } from "./reporters/run-reporters.ts";
import type { ReporterContext } from "./reporters/reporter-context.ts";
import { commitOf } from "./write-run-results.ts";
import { commandConfig } from "./command-config.ts";
import { mergedTestEvents } from "./merged-test-events.ts";
import { isPlanProblem, type PlanProblem } from "./plan-problem.ts";
import {
  ARTIFACTS,
  filteredOf,
  playSpecs,
  plannedRunOf,
  type Plan,
  type PlayedRun,
  type RunSettings,
} from "./play-specs.ts";
import { ArgumentError, moduleSpecifier, runRequestOf, USAGE, withoutWatch, type RunRequest } from "./run-arguments.ts";
import { checklistOf, typecheckProof } from "./run-checklist.ts";
import { shardOf } from "./shard-scenarios.ts";
import { isScenarioPath, missingPaths, runPathsOf } from "./spec-files.ts";
import { specsForScenarios } from "./specs-for-scenarios.ts";
import { startSpecWorker } from "./spec-worker.ts";
import { startPlannedApps } from "./start-planned-apps.ts";
import { splitSpecs } from "./split-specs.ts";
import { testReporters } from "./test-reporters.ts";
import { watchTests } from "./watch-tests.ts";

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
 * Plays `plan`'s spec files, split over `--workers` processes: this one plays the lightest part, a
 * worker process each other part, told what the run planned (`PartOrder`). Their run events join
 * the run's record as they come; their node:test events join this process's as one run's, for
 * node:test's reporters (`mergedTestEvents`). Resolves to whether every test passed.
 */
async function playParts(plan: Plan, settings: RunSettings, run: PlayedRun): Promise<boolean> {
  const { request } = settings;
  const reporters = await testReporters(request.reporters);
  const [own = [], ...others] = splitSpecs(plan.files, request.workers);
  const workers = others.map((files) => startSpecWorker({ settings, plan: { ...plan, files } }, run.record));
  const passed = await playSpecs(own, request, run, (events) =>
    reporters(workers.length ? mergedTestEvents([events, ...workers.map((worker) => worker.events)]) : events),
  );
  return passed && workers.every((worker) => worker.passed());
}

/**
 * Why `--workers` cannot split this run: a live or recording run plays in one process, so that the
 * provider limits its arbiter keeps hold for the whole run.
 */
function refusedWorkers({ request, config }: CheckedRequest): PlanProblem | undefined {
  if (request.workers === 1 || (config.flowModel !== "live" && config.flowModel !== "record")) return undefined;
  return {
    problem: [
      `flowcheck test: --workers ${request.workers} with FLOW_MODEL=${config.flowModel}: a run that calls the provider plays in one process, ` +
        "so that its limits (FLOW_CONCURRENCY, OPENAI_MAX_INFLIGHT, OPENAI_MAX_RPM) hold for the whole run. Leave --workers out.",
    ],
    exitCode: 2,
  };
}

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
  { request, environment, config, targets, flows }: CheckedRequest,
  plan: Plan,
  begin: RunBegin,
): Promise<number> {
  const { record } = run;
  const { reported } = await startReporters(request, reporterContext(run, request, config), record);
  record.emit({ type: "run:begin", data: begin });
  let passed: boolean;
  try {
    passed = await playParts(plan, { request, environment, config, targets }, run);
  } finally {
    await run.startedApps.closeAll();
  }
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
  const begun = withJudgeCalibration(begin);
  const checked = await checkedRequestOf(asked);
  if (isPlanProblem(checked)) return reportProblem(asked, checked, begun);
  const { request, config, flows } = checked;
  // The scenario files are found once, here, and every spec the run imports takes them from the run.
  const scenarios = new ScenarioCatalog();
  const plan = planOf(
    request,
    config.flowTarget,
    flows.map((entry) => entry.flow.name),
    scenarios,
  );
  if (isPlanProblem(plan)) return reportProblem(request, plan, begun);
  const refused = refusedWorkers(checked);
  if (refused) return reportProblem(request, refused, begun);
  const run = plannedRunOf(checked, plan, scenarios);
  const unstarted = await startPlannedApps(run, checked, plan, scenarios);
  if (unstarted) return reportProblem(request, unstarted, begun);
  return withRun(run, () =>
    playRun(run, checked, plan, {
      ...begun,
      files: plan.files,
      ...(plan.scenarioPaths ? { scenarioPaths: plan.scenarioPaths } : {}),
      ...(plan.targetScenarios ? { targetScenarios: plan.targetScenarios } : {}),
      ...(request.repeat !== undefined ? { repeat: request.repeat } : {}),
    }),
  );
}

/**
 * `begin` with the committed judge calibration, read once for the run; a file there that is not
 * one is said in one line, and the run goes on without it.
 */
function withJudgeCalibration(begin: RunBegin): RunBegin {
  const { headline, problem } = judgeCalibrationHeadline();
  if (problem !== undefined) console.error(`flowcheck test: ${problem}`);
  return headline ? { ...begin, judgeCalibration: headline } : begin;
}

/**
 * The run a request asks for, its configuration resolved once (the environment, flowcheck.config.json's
 * targets, the command line), and the project's flows (flowcheck.config.json's "flows").
 */
interface CheckedRequest extends RunSettings {
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
