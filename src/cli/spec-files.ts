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

/** The paths among `paths` that do not exist. */
export function missingPaths(paths: readonly string[]): string[] {
  return paths.filter((path) => !existsSync(path));
}
