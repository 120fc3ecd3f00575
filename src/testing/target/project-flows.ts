import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { FlowEntry } from "../../engine/index.ts";

/**
 * The flows `<root>/flowcheck.config.json` names in "flows": the `registeredFlows` of that module,
 * its path resolved from the config's folder; none when there is no config or it names no flows.
 */
export async function loadProjectFlows(root: string = process.cwd()): Promise<readonly FlowEntry[]> {
  const file = join(root, "flowcheck.config.json");
  if (!existsSync(file)) return [];
  const { flows } = JSON.parse(readFileSync(file, "utf8")) as { flows?: string };
  if (flows === undefined) return [];
  const module = (await import(pathToFileURL(resolve(dirname(file), flows)).href)) as {
    registeredFlows: readonly FlowEntry[];
  };
  return module.registeredFlows;
}
