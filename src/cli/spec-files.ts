import { existsSync, globSync, statSync } from "node:fs";
import { join } from "node:path";

// Scratch output, benchmarks, fixture projects and the package's build hold spec files that are not the suite's own.
const SKIPPED_FOLDERS = ["node_modules", ".tmp", "bench", "fixtures", "dist"];

/** The *.spec.ts files under `path` (or `path` itself), sorted. */
export function specsUnder(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  const skipped = (name: string) => SKIPPED_FOLDERS.some((folder) => name === folder || name.endsWith(`/${folder}`));
  return globSync("**/*.spec.ts", { cwd: path, exclude: skipped })
    .map((file) => join(path, file))
    .sort();
}

/** A path of scenarios rather than specs: a JSON file, or a folder with no spec in it (scenarios/, scenarios/team). */
export function isScenarioPath(path: string): boolean {
  return statSync(path).isDirectory() ? specsUnder(path).length === 0 : path.endsWith(".json");
}

/**
 * The scenario paths among a run's `paths`, and the spec files it searches: those under the spec
 * paths given, else, given scenario paths alone, those under the project's test/ if it has one.
 */
export function runPathsOf(paths: readonly string[]): { scenarioPaths: string[]; specFiles: string[] } {
  const scenarioPaths = paths.filter(isScenarioPath);
  const specPaths = paths.filter((path) => !isScenarioPath(path));
  const specRoots = specPaths.length || !scenarioPaths.length ? specPaths : existsSync("test") ? ["test"] : [];
  return { scenarioPaths, specFiles: specRoots.flatMap(specsUnder) };
}

/** The paths among `paths` that do not exist. */
export function missingPaths(paths: readonly string[]): string[] {
  return paths.filter((path) => !existsSync(path));
}
