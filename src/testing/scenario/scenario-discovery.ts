import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, sep } from "node:path";

export const SCENARIO_SUFFIX = ".scenario.json";

/** JSON files in the scenarios folder that are not scenarios by design. */
const NOT_SCENARIOS = [/^(scenario|flowcheck\.config)\.schema\.json$/, /\.cassette\.json$/];
const SKIPPED_FOLDERS = new Set(["node_modules"]);

/** A JSON file that looks like a scenario but is not named one, so no command would load it. */
export interface MisnamedScenario {
  file: string;
  /** The name it should have. */
  rename: string;
  /** Its `flowName`, when it has a string one. */
  flowName?: string;
}

export interface ScenarioDiscovery {
  /** Every `*.scenario.json` under the folder, at any depth, sorted. */
  files: string[];
  misnamed: MisnamedScenario[];
  /** Paths asked for that do not exist. */
  missing: string[];
}

function jsonFilesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory())
        return entry.name.startsWith(".") || SKIPPED_FOLDERS.has(entry.name) ? [] : jsonFilesUnder(path);
      return entry.name.endsWith(".json") ? [path] : [];
    })
    .sort();
}

/** What a scenario file says before it is loaded: enough to tell whose it is, whatever else is wrong with it. */
export interface ScenarioHeader {
  flowName?: unknown;
  target?: unknown;
  tags?: unknown;
  turns?: unknown;
}

/** The file's top level, or `undefined` when it is not a JSON object. */
export function scenarioHeaderOf(file: string): ScenarioHeader | undefined {
  try {
    const data = JSON.parse(readFileSync(file, "utf8")) as unknown;
    return data !== null && typeof data === "object" && !Array.isArray(data) ? (data as ScenarioHeader) : undefined;
  } catch {
    return undefined;
  }
}

/** `notes.json` → `notes.scenario.json`: the name that makes a file a scenario. */
function renameOf(file: string): string {
  return file.replace(/(\.scenario)?\.json$/, SCENARIO_SUFFIX);
}

/** A JSON object with `flowName` or `turns` was meant as a scenario; anything else may be data. */
function misnamedScenario(file: string): MisnamedScenario | undefined {
  const header = scenarioHeaderOf(file);
  if (!header || !("flowName" in header || "turns" in header)) return undefined;
  return {
    file,
    rename: renameOf(file),
    ...(typeof header.flowName === "string" ? { flowName: header.flowName } : {}),
  };
}

/**
 * Every scenario file under `dir` (default `scenarios`), at any depth, and the JSON files there
 * that look like scenarios but are not named `*.scenario.json`, so that none is silently skipped.
 */
export function discoverScenarios(dir = "scenarios"): ScenarioDiscovery {
  if (!existsSync(dir)) return { files: [], misnamed: [], missing: [] };
  const json = jsonFilesUnder(dir);
  const files = json.filter((file) => file.endsWith(SCENARIO_SUFFIX));
  const misnamed = json
    .filter(
      (file) =>
        !file.endsWith(SCENARIO_SUFFIX) &&
        !NOT_SCENARIOS.some((pattern) => pattern.test(file.slice(file.lastIndexOf(sep) + 1))),
    )
    .flatMap((file) => misnamedScenario(file) ?? []);
  return { files, misnamed, missing: [] };
}

/**
 * The scenarios in the files and folders a run was narrowed to: a folder is discovered as a
 * whole, a file named otherwise than `*.scenario.json` is reported with the rename.
 */
export function discoverSelected(paths: readonly string[]): ScenarioDiscovery {
  const found: ScenarioDiscovery = { files: [], misnamed: [], missing: [] };
  for (const path of paths) {
    if (!existsSync(path)) found.missing.push(path);
    else if (statSync(path).isDirectory()) {
      const inside = discoverScenarios(path);
      found.files.push(...inside.files);
      found.misnamed.push(...inside.misnamed);
    } else if (path.endsWith(SCENARIO_SUFFIX)) found.files.push(path);
    else found.misnamed.push(misnamedScenario(path) ?? { file: path, rename: renameOf(path) });
  }
  found.files = [...new Set(found.files)].sort();
  return found;
}
