import { existsSync, statSync } from "node:fs";
import { basename, dirname, relative, resolve, sep } from "node:path";
import { discoverSelected, scenarioHeaderOf } from "../testing/scenario/scenario-discovery.ts";
import { specsOfFlows } from "../testing/node-test/flow-spec-name.ts";
import { loadConfigFile, TARGET_CONFIG_FILE } from "../testing/target/target-config.ts";
import type { RunRequest } from "./run-arguments.ts";
import { runPathsOf } from "./spec-files.ts";

/** What `flowcheck test --watch` watches for a request, as it says it and as it watches it. */
export interface WatchedPaths {
  /** The scenario files the run plays. */
  scenarios: string[];
  /** The spec files that play them (or the spec paths given, when no scenario path is). */
  specs: string[];
  /** The flows' code and the project's config: src/, the folder of the config's "flows" module, flowcheck.config.json. */
  code: string[];
  /** All of them as absolute paths, none inside a folder of another: what fs.watch is given. */
  roots: string[];
}

/**
 * What a round of `request` reads that an edit can change: its scenario files (the folders given
 * as they are, so that a new file counts), the specs named after those files' flows, and the flows'
 * code. Which files a flow's code spans is not known without importing it, so its code is src/ and
 * the folder of the module flowcheck.config.json names in "flows" (that module alone when it sits
 * in the project's root, whose node_modules a recursive watch would walk).
 */
export function watchedPaths(request: RunRequest): WatchedPaths {
  // A path given may be gone by a later round (deleted, renamed): it stays watched, for its return.
  const present = request.paths.filter((path) => existsSync(path));
  const gone = request.paths.filter((path) => !present.includes(path));
  const { scenarioPaths, specFiles } = runPathsOf(present);
  const found = discoverSelected(scenarioPaths.length ? scenarioPaths : existsSync("scenarios") ? ["scenarios"] : []);
  const flowNames = [
    ...found.files.map((file) => scenarioHeaderOf(file)?.flowName),
    ...found.misnamed.map((file) => file.flowName),
  ];
  const specs = scenarioPaths.length ? specsOfFlows(specFiles, flowNames) : specFiles;
  const code = [
    ...(existsSync("src") ? ["src"] : []),
    ...flowsModuleFolder(),
    ...(existsSync(TARGET_CONFIG_FILE) ? [TARGET_CONFIG_FILE] : []),
  ];
  const given = [
    ...(scenarioPaths.length ? scenarioPaths : [...present, ...(existsSync("scenarios") ? ["scenarios"] : [])]),
    ...gone,
  ];
  return {
    scenarios: found.files,
    specs,
    code: outermost(code),
    roots: outermost([...given, ...specs, ...code].map((path) => resolve(path))),
  };
}

/**
 * The folder of the config's "flows" module, or the module itself in the project's root; none
 * without one, or with a config the round will refuse.
 */
function flowsModuleFolder(): string[] {
  let written: string | undefined;
  let configPath = "";
  try {
    const config = loadConfigFile(process.cwd());
    written = config?.flows;
    configPath = config?.path ?? "";
  } catch {
    return [];
  }
  if (written === undefined) return [];
  const module = resolve(dirname(configPath), written);
  if (!existsSync(module)) return [];
  const folder = dirname(module);
  const root = process.cwd();
  const holdsRoot = root === folder || root.startsWith(folder + sep);
  return [relative(".", holdsRoot ? module : folder)];
}

/** `paths` without those inside a folder among them; a missing file stays while its folder is there, so that its return is seen. */
function outermost(paths: readonly string[]): string[] {
  const watchable = [...new Set(paths)].filter((path) => existsSync(path) || existsSync(dirname(path)));
  const folders = watchable.filter((path) => statSync(path, { throwIfNoEntry: false })?.isDirectory());
  return watchable.filter((path) => !folders.some((folder) => path !== folder && path.startsWith(folder + sep)));
}

/** The one line that says what is watched: a list of one is its path, of more a count; folders end in "/". */
export function describeWatched(watched: WatchedPaths): string {
  const named = (paths: readonly string[], what: string) =>
    paths.length === 1 ? [shownPath(paths[0]!)] : paths.length ? [`${paths.length} ${what}`] : [];
  const parts = [
    ...named(watched.scenarios, "scenario files"),
    ...named(watched.specs, "specs"),
    ...watched.code.map(shownPath),
  ];
  return `watching ${parts.join(", ") || "nothing"} — save to run again, Ctrl-C to stop`;
}

function shownPath(path: string): string {
  const shown = relative(".", path) || ".";
  return existsSync(path) && statSync(path).isDirectory() ? `${shown}/` : shown;
}

/**
 * Whether a change at `path` (relative to a watched folder) is one a round would not read, or one
 * it writes itself: dot folders and files (.git, test/.tmp, editors' swap files), node_modules,
 * cassettes (FLOW_MODEL=record writes them beside the scenarios), editors' backups (`x.json~`).
 */
export function ignoredChange(path: string): boolean {
  const name = basename(path);
  return (
    path.split(sep).some((part) => part.startsWith(".") || part === "node_modules") ||
    name.endsWith(".cassette.json") ||
    name.endsWith("~")
  );
}
