import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, sep } from "node:path";

export const SCENARIO_SUFFIX = ".scenario.json";

/** JSON files in the scenarios folder that are not scenarios by design, and what each is. */
const NOT_SCENARIOS: [RegExp, string][] = [
  [/^scenario\.schema\.json$/, "the schema of scenario files, not a scenario"],
  [/^flowcheck\.config\.schema\.json$/, "the schema of flowcheck.config.json, not a scenario"],
  [/\.cassette\.json$/, "a cassette, replayed with the scenario of its name"],
];
const SKIPPED_FOLDERS = new Set(["node_modules"]);

/** A JSON file that looks like a scenario but is not named one, so no command would load it. */
export interface MisnamedScenario {
  file: string;
  /** The name it should have. */
  rename: string;
  /** Its `flowName`, when it has a string one. */
  flowName?: string;
}

/** A JSON file under the folder that no command loads as a scenario, and why: said, never silently passed over. */
export interface NotAScenario {
  file: string;
  why: string;
}

export interface ScenarioDiscovery {
  /** Every `*.scenario.json` under the folder, at any depth, sorted. */
  files: string[];
  misnamed: MisnamedScenario[];
  /** The other JSON files there: schemas, cassettes, data. */
  others: NotAScenario[];
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
  user?: unknown;
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

/** A JSON object with `flowName`, `turns` or a simulated `user` was meant as a scenario; anything else may be data. */
function misnamedScenario(file: string): MisnamedScenario | undefined {
  const header = scenarioHeaderOf(file);
  if (!header || !("flowName" in header || "turns" in header || "user" in header)) return undefined;
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
  const found: ScenarioDiscovery = { files: [], misnamed: [], others: [], missing: [] };
  if (!existsSync(dir)) return found;
  for (const file of jsonFilesUnder(dir)) {
    if (file.endsWith(SCENARIO_SUFFIX)) {
      found.files.push(file);
      continue;
    }
    const name = file.slice(file.lastIndexOf(sep) + 1);
    const designed = NOT_SCENARIOS.find(([pattern]) => pattern.test(name))?.[1];
    const misnamed = designed === undefined ? misnamedScenario(file) : undefined;
    if (misnamed) found.misnamed.push(misnamed);
    else found.others.push({ file, why: designed ?? "JSON with no flowName, turns or user: data, not a scenario" });
  }
  return found;
}

/**
 * The scenarios in the files and folders a run was narrowed to: a folder is discovered as a
 * whole, a file named otherwise than `*.scenario.json` is reported with the rename.
 */
export function discoverSelected(paths: readonly string[]): ScenarioDiscovery {
  const found: ScenarioDiscovery = { files: [], misnamed: [], others: [], missing: [] };
  for (const path of paths) {
    if (!existsSync(path)) found.missing.push(path);
    else if (statSync(path).isDirectory()) {
      const inside = discoverScenarios(path);
      found.files.push(...inside.files);
      found.misnamed.push(...inside.misnamed);
      found.others.push(...inside.others);
    } else if (path.endsWith(SCENARIO_SUFFIX)) found.files.push(path);
    else found.misnamed.push(misnamedScenario(path) ?? { file: path, rename: renameOf(path) });
  }
  found.files = [...new Set(found.files)].sort();
  return found;
}
