import { test } from "node:test";
import type { FlowDefinition } from "../../engine/flow.ts";
import type { FlowShape, UntypedFlow } from "../../engine/flow-types.ts";
import type { DomainCheck, TurnCheck } from "../checks/domain-check.ts";
import { scenarioNameOf } from "../scenario/load-scenario.ts";
import { currentRun, type CurrentRun } from "../report/current-run.ts";
import type { ScenarioDiscovery, ScenarioHeader } from "../scenario/scenario-discovery.ts";
import { TARGET_CONFIG_FILE, type TargetConfig } from "../target/target-config.ts";
import { isFlowcheckError } from "../../errors.ts";
import { chooseTarget } from "../target/choose-target.ts";
import { listedFlowOutline } from "../target/flow-outline-of.ts";
import type { FlowOutline } from "../scenario/meaning-problems.ts";
import { describeInvalidFile, describeScenarioFile } from "./describe-scenario-file.ts";
import { ScenarioFailure } from "./scenario-failure.ts";
import type { SuiteOptions } from "./suite-options.ts";

/**
 * Checks in code for some of a flow's scenarios: after the last turn (`domain`), after every
 * answered turn (`eachTurn`). `F` is the flow's `FlowTypes`, so `stepState(document, "…")` in them
 * checks the step's name and types its state.
 */
export interface ScenarioChecks<F extends FlowShape = UntypedFlow> {
  domain?: DomainCheck<F>;
  eachTurn?: TurnCheck<F>;
}

export interface FlowScenariosOptions<F extends FlowShape = UntypedFlow>
  extends Omit<SuiteOptions, "domain" | "eachTurn" | "outline" | "run"> {
  /**
   * Checks for one scenario file each, by its name: its path under `dir` without
   * `.scenario.json`, e.g. `basic-flow` or `team/ada-lovelace`. A name that is no scenario file
   * of the flow fails, so a renamed file never loses its checks without a word.
   */
  scenarios?: Record<string, ScenarioChecks<F>>;
  /** Checks for every scenario of the flow that carries the tag (a tag no scenario carries fails). */
  tags?: Record<string, ScenarioChecks<F>>;
  /** Checks every scenario of the flow must pass: invariants of the flow itself, such as an invoice's arithmetic. */
  everyScenario?: ScenarioChecks<F>;
  /** Where the scenario files are, at any depth. Default `scenarios`. */
  dir?: string;
  /**
   * These scenario files alone, instead of every file of the flow under `dir` (and whatever
   * scenario paths the run is given): for a spec of one file. Each is described whatever it holds; one of
   * another registered flow fails, naming it.
   */
  files?: readonly string[];
  /** How many times each conversation is played, each on a fresh app; default the run's `--repeat`, else `FLOW_REPEAT` (1). */
  repeat?: number;
}

/** Every check that applies to a scenario, run one after another as one. */
function combine(list: readonly ScenarioChecks[]): ScenarioChecks {
  const domains = list.flatMap((checks) => (checks.domain ? [checks.domain] : []));
  const turns = list.flatMap((checks) => (checks.eachTurn ? [checks.eachTurn] : []));
  const domain: DomainCheck = async (document, scenario) => {
    for (const check of domains) await check(document, scenario);
  };
  const eachTurn: TurnCheck = async (head, turn, scenario) => {
    for (const check of turns) await check(head, turn, scenario);
  };
  return { ...(domains.length ? { domain } : {}), ...(turns.length ? { eachTurn } : {}) };
}

function failing(name: string, message: string): void {
  test(name, () => {
    throw new ScenarioFailure("scenario_invalid", message);
  });
}

/**
 * Every scenario file of a flow under `dir`, at any depth, as node:test suites, each held to the
 * checks its name, tags and flow call for, and played `repeat` times. Given the flow's definition,
 * the checks are typed by its `FlowTypes`: a misspelt step in `stepState` does not compile. A flow
 * served elsewhere (`FLOW_BASE_URL`) is given by its name, and its checks' state is untyped.
 *
 * Nothing is skipped without a word: a file that does not parse, names no registered flow or fails
 * the schema is a failing test naming it (a file of another registered flow is left to that flow's
 * spec), and so is a JSON file that looks like a scenario but is not named `*.scenario.json`. Given
 * scenario paths (`npm run test:flows -- <paths>`), the run plays only the files and folders they name; with `files`, those files alone.
 *
 * @example
 * describeFlowScenarios(InvoiceFlow, {
 *   flows: registeredFlows,
 *   everyScenario: { domain: (document) => assert.ok(stepState(document, "ConfirmStep").invoiceNumber) },
 * });
 */
export function describeFlowScenarios<F extends FlowShape>(
  flow: FlowDefinition<F>,
  options: FlowScenariosOptions<F>,
): void;
export function describeFlowScenarios(flowName: string, options: FlowScenariosOptions): void;
export function describeFlowScenarios(
  flow: FlowDefinition<FlowShape> | string,
  typed: FlowScenariosOptions<never>,
): void {
  // The checks' types are the spec's to hold; at run time every check gets a plain session.
  const options = typed as unknown as FlowScenariosOptions;
  const flowName = typeof flow === "string" ? flow : flow.name;
  const dir = options.dir ?? "scenarios";
  const { scenarios: _scenarios, tags: _tags, everyScenario: _every, dir: _dir, files: _files, ...own } = options;
  // The run this spec's suites belong to, looked up once for all of them.
  const run = currentRun();
  // flowcheck.config.json, read once for the run (or the spec played alone); one that does not load is one failing test.
  let targets: TargetConfig | undefined;
  try {
    targets = "targets" in own ? own.targets : run.targets();
  } catch (error) {
    test(`${TARGET_CONFIG_FILE} loads`, () => {
      throw isFlowcheckError(error) ? new ScenarioFailure(error.code, error.message) : error;
    });
    return;
  }
  const suite = { ...own, targets, run };
  // FLOW_TARGET, when the environment reads: one that does not is each suite's start test to report, with every problem.
  const flowTarget = run.config instanceof Error ? undefined : run.config.flowTarget;
  const describe: Describe = (file, header, checks) => {
    let outline: FlowOutline | undefined;
    try {
      outline = targetOutlineOf(targets, header, flowTarget, file);
    } catch (error) {
      describeInvalidFile(file, error);
      return;
    }
    describeScenarioFile(file, { ...suite, ...checks, ...(outline ? { outline } : {}), root: dir });
  };
  if (options.files) describeFiles(flowName, options, options.files, run, describe);
  else describeDiscovered(flowName, options, run, describe);
}

/** Describes one scenario file, held to `checks`. */
type Describe = (file: string, header: ScenarioHeader | undefined, checks: ScenarioChecks) => void;

/**
 * The flow's files under its `dir` (or those of the run's scenario paths), each described; a path
 * that does not exist, a misnamed scenario, a scope naming no file and a flow with no file each fail.
 * The files and their headers are the run's (`ScenarioCatalog`): every flow spec shares one scan.
 */
function describeDiscovered(
  flowName: string,
  options: FlowScenariosOptions,
  current: CurrentRun,
  describe: Describe,
): void {
  const dir = options.dir ?? "scenarios";
  const registered = new Set(options.flows.map((entry) => entry.flow.name));
  const { scenarios } = current;
  const selection = current.scope.scenarioPaths;
  const all = scenarios.under(dir);
  const run: ScenarioDiscovery = selection ? scenarios.selected(selection) : all;
  // A file that cannot be told to be another registered flow's is every flow spec's to report.
  const ours = (name: unknown) => name === flowName || typeof name !== "string" || !registered.has(name);

  for (const missing of run.missing)
    failing(`${missing} exists`, `The run names ${missing}, which is neither a file nor a folder.`);
  for (const file of run.misnamed) {
    if (!ours(file.flowName)) continue;
    failing(
      `${file.file} is named as a scenario`,
      `${file.file} looks like a scenario (it has flowName, turns or user) but is not named *.scenario.json, ` +
        `so no command loads it; rename it to ${file.rename}.`,
    );
  }
  const headers = new Map(all.files.map((file) => [file, scenarios.headerOf(file)]));
  const flowFiles = all.files.filter((file) => headers.get(file)?.flowName === flowName);
  checkScopes(
    flowName,
    options,
    dir,
    flowFiles.map((file) => [file, headers.get(file)!]),
  );
  for (const file of run.files) {
    const header = headers.get(file) ?? scenarios.headerOf(file);
    if (!ours(header?.flowName)) continue;
    // One that does not parse, or names no registered flow, is described too: the loader says which, with the fix.
    describe(
      file,
      header,
      header?.flowName === flowName ? checksFor(options, scenarioNameOf(file, dir), tagsOf(header)) : {},
    );
  }
  if (flowFiles.length === 0 && !selection) {
    failing(
      `${flowName} has scenarios`,
      `No file under ${dir}/ has "flowName": "${flowName}"; add one as ${dir}/<name>.scenario.json.`,
    );
  }
}

/** The files a spec names, each described, and one of another registered flow failing, naming the flow. */
function describeFiles(
  flowName: string,
  options: FlowScenariosOptions,
  files: readonly string[],
  current: CurrentRun,
  describe: Describe,
): void {
  const dir = options.dir ?? "scenarios";
  const registered = new Set(options.flows.map((entry) => entry.flow.name));
  const headers = files.map((file) => [file, current.scenarios.headerOf(file)] as const);
  checkScopes(
    flowName,
    options,
    dir,
    headers.flatMap(([file, header]) =>
      header?.flowName === flowName ? [[file, header] as [string, ScenarioHeader]] : [],
    ),
  );
  for (const [file, header] of headers) {
    const other = header?.flowName;
    if (typeof other === "string" && other !== flowName && registered.has(other)) {
      failing(
        `${file} is a scenario of ${flowName}`,
        `${file} has "flowName": "${other}", but this spec describes ${flowName}'s scenarios; describe it with ${other}, or fix its flowName.`,
      );
      continue;
    }
    describe(file, header, other === flowName ? checksFor(options, scenarioNameOf(file, dir), tagsOf(header)) : {});
  }
}

/**
 * For a file played against a target of flowcheck.config.json (its `target`, else FLOW_TARGET),
 * the outline its entry lists, so a flow the target serves loads by its name: the steps it lists
 * and the turn keys its kind refuses. Throws when the target cannot be chosen.
 */
function targetOutlineOf(
  targets: TargetConfig | undefined,
  header: ScenarioHeader | undefined,
  flowTarget: string | undefined,
  file: string,
): FlowOutline | undefined {
  if (typeof header?.flowName !== "string") return undefined;
  const own = typeof header.target === "string" ? header.target : undefined;
  const chosen = chooseTarget(targets, own, flowTarget, file);
  return chosen && listedFlowOutline(chosen.name, chosen.entry, header.flowName);
}

function tagsOf(header: ScenarioHeader | undefined): string[] {
  return [header?.tags].flat().filter((tag): tag is string => typeof tag === "string");
}

/** The checks a scenario of the flow is held to: the flow's, its tags', then its own. */
function checksFor(options: FlowScenariosOptions, name: string, tags: readonly string[]): ScenarioChecks {
  const own = options.scenarios?.[name];
  return combine([
    ...(options.everyScenario ? [options.everyScenario] : []),
    ...tags.flatMap((tag) => options.tags?.[tag] ?? []),
    ...(own ? [own] : []),
  ]);
}

/** A failing test for each scenario name or tag the spec has checks for that no file of the flow has. */
function checkScopes(
  flowName: string,
  options: FlowScenariosOptions,
  dir: string,
  files: readonly [string, ScenarioHeader][],
): void {
  const names = new Set(files.map(([file]) => scenarioNameOf(file, dir)));
  const tags = new Set(files.flatMap(([, header]) => tagsOf(header)));
  for (const name of Object.keys(options.scenarios ?? {})) {
    if (names.has(name)) continue;
    failing(
      `${flowName}: the checks for "${name}" have a scenario`,
      `The spec has checks for the scenario "${name}", but no ${flowName} scenario file under ${dir}/ has that name; the names are ${[...names].join(", ") || "(none)"}. Rename the key to the file's path under ${dir}/ without .scenario.json.`,
    );
  }
  for (const tag of Object.keys(options.tags ?? {})) {
    if (tags.has(tag)) continue;
    failing(
      `${flowName}: the checks for the tag "${tag}" have a scenario`,
      `The spec has checks for the tag "${tag}", but no ${flowName} scenario under ${dir}/ carries it; the tags are ${[...tags].join(", ") || "(none)"}.`,
    );
  }
}
