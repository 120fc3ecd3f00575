import { test } from "node:test";
import { scenarioPathsOf } from "../../config.ts";
import { describeScenario, type ScenarioSuiteOptions } from "./describe-scenarios.ts";
import { scenarioNameOf } from "../scenario/load-scenario.ts";
import { ScenarioFailure } from "./scenario-failure.ts";
import { discoverScenarios, discoverSelected, scenarioHeaderOf, type ScenarioDiscovery, type ScenarioHeader } from "../scenario/scenario-discovery.ts";
import type { DomainCheck, TurnCheck } from "../checks/domain-check.ts";

/** Checks in code for some of a flow's scenarios: after the last turn (`domain`), after every answered turn (`eachTurn`). */
export interface ScenarioChecks {
  domain?: DomainCheck;
  eachTurn?: TurnCheck;
}

export interface FlowScenariosOptions extends Omit<ScenarioSuiteOptions, "domain" | "eachTurn"> {
  /**
   * Checks for one scenario file each, by its name: its path under `dir` without
   * `.scenario.json`, e.g. `basic-flow` or `team/ada-lovelace`. A name that is no scenario file
   * of the flow fails, so a renamed file never loses its checks without a word.
   */
  scenarios?: Record<string, ScenarioChecks>;
  /** Checks for every scenario of the flow that carries the tag (a tag no scenario carries fails). */
  tags?: Record<string, ScenarioChecks>;
  /** Checks every scenario of the flow must pass: invariants of the flow itself, such as an invoice's arithmetic. */
  everyScenario?: ScenarioChecks;
  /** Where the scenario files are, at any depth. Default `scenarios`. */
  dir?: string;
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
 * Every scenario file of `flowName` under `dir`, at any depth, each as `describeScenario` with the
 * checks its name, tags and flow call for. Nothing is skipped without a word: a file that does not
 * parse, names no registered flow or fails the schema is a failing test naming it (a file of
 * another registered flow is left to that flow's spec), and so is a JSON file that looks like a
 * scenario but is not named `*.scenario.json`. With `FLOW_SCENARIOS` set (`npm run test:flows --
 * <paths>`), only the files and folders it names are run.
 */
export function describeFlowScenarios(flowName: string, options: FlowScenariosOptions): void {
  const dir = options.dir ?? "scenarios";
  const registered = new Set(options.flows.map((entry) => entry.flow.name));
  const selection = scenarioPathsOf();
  const all = discoverScenarios(dir);
  const run: ScenarioDiscovery = selection ? discoverSelected(selection) : all;
  // A file that cannot be told to be another registered flow's is every flow spec's to report.
  const ours = (name: unknown) => name === flowName || typeof name !== "string" || !registered.has(name);

  for (const missing of run.missing) failing(`${missing} exists`, `FLOW_SCENARIOS names ${missing}, which is neither a file nor a folder.`);
  for (const file of run.misnamed) {
    if (!ours(file.flowName)) continue;
    failing(
      `${file.file} is named as a scenario`,
      `${file.file} looks like a scenario (it has flowName or turns) but is not named *.scenario.json, so no command loads it; rename it to ${file.rename}.`,
    );
  }
  const headers = new Map(all.files.map((file) => [file, scenarioHeaderOf(file)]));
  const flowFiles = all.files.filter((file) => headers.get(file)?.flowName === flowName);
  checkScopes(flowName, options, dir, flowFiles.map((file) => [file, headers.get(file)!]));
  for (const file of run.files) {
    const header = headers.get(file) ?? scenarioHeaderOf(file);
    if (!ours(header?.flowName)) continue;
    // One that does not parse, or names no registered flow, is described too: the loader says which, with the fix.
    const checks = header?.flowName === flowName ? checksFor(options, scenarioNameOf(file, dir), tagsOf(header)) : {};
    describeScenario(file, { ...options, ...checks, root: dir });
  }
  if (flowFiles.length === 0 && !selection) {
    failing(`${flowName} has scenarios`, `No file under ${dir}/ has "flowName": "${flowName}"; add one as ${dir}/<name>.scenario.json.`);
  }
}

function tagsOf(header: ScenarioHeader | undefined): string[] {
  return [header?.tags].flat().filter((tag): tag is string => typeof tag === "string");
}

/** The checks a scenario of the flow is held to: the flow's, its tags', then its own. */
function checksFor(options: FlowScenariosOptions, name: string, tags: readonly string[]): ScenarioChecks {
  const own = options.scenarios?.[name];
  return combine([...(options.everyScenario ? [options.everyScenario] : []), ...tags.flatMap((tag) => options.tags?.[tag] ?? []), ...(own ? [own] : [])]);
}

/** A failing test for each scenario name or tag the spec has checks for that no file of the flow has. */
function checkScopes(flowName: string, options: FlowScenariosOptions, dir: string, files: readonly [string, ScenarioHeader][]): void {
  const names = new Set(files.map(([file]) => scenarioNameOf(file, dir)));
  const tags = new Set(files.flatMap(([, header]) => tagsOf(header)));
  for (const name of Object.keys(options.scenarios ?? {})) {
    if (names.has(name)) continue;
    failing(`${flowName}: the checks for "${name}" have a scenario`, `The spec has checks for the scenario "${name}", but no ${flowName} scenario file under ${dir}/ has that name; the names are ${[...names].join(", ") || "(none)"}. Rename the key to the file's path under ${dir}/ without .scenario.json.`);
  }
  for (const tag of Object.keys(options.tags ?? {})) {
    if (tags.has(tag)) continue;
    failing(`${flowName}: the checks for the tag "${tag}" have a scenario`, `The spec has checks for the tag "${tag}", but no ${flowName} scenario under ${dir}/ carries it; the tags are ${[...tags].join(", ") || "(none)"}.`);
  }
}
