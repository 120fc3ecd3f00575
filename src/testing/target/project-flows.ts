import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { FlowEntry } from "../../engine/scripted-model.ts";
import { FlowcheckError } from "../../errors.ts";
import { shownPath } from "../scenario/scenario-location.ts";
import { loadConfigFile } from "./target-config.ts";

/** A flow entry as an app registers it: its definition has a name and steps. */
function isFlowEntry(value: unknown): value is FlowEntry {
  const flow = (value as { flow?: { name?: unknown; steps?: unknown } } | null)?.flow;
  return typeof flow?.name === "string" && Array.isArray(flow.steps);
}

/**
 * The flows the project's `flowcheck.config.json` names in `flows`: the `registeredFlows` its
 * module exports (a path relative to the file's folder, or absolute). [] when there is no file or
 * it names no module. The file must be valid (`target_config_invalid`), but the targets' `${VAR}`
 * references are not read: serving the flows needs no target's credential. A module that does not
 * exist is `flows_module_missing`, one that throws while loading `flows_module_failed` (its error
 * the cause), one without an array of flow entries as `registeredFlows` `flows_module_invalid`.
 *
 * @example
 * // flowcheck.config.json: { "flows": "./src/flows/index.ts" }
 * const flows = await loadProjectFlows(); // src/flows/index.ts's registeredFlows
 */
export async function loadProjectFlows(root: string = process.cwd()): Promise<readonly FlowEntry[]> {
  const config = loadConfigFile(root);
  if (config?.flows === undefined) return [];
  const written = config.flows;
  const path = resolve(dirname(config.path), written);
  const named = `${shownPath(config.path)} names "flows": "${written}"`;
  if (!existsSync(path)) {
    throw new FlowcheckError(
      "flows_module_missing",
      `${named}, but there is no ${path}; fix the path (relative to the file's folder), or remove "flows" if the project has no flows of its own.`,
    );
  }
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (error) {
    throw new FlowcheckError(
      "flows_module_failed",
      `${named}, and importing ${shownPath(path)} failed: ${(error as Error).message ?? String(error)}; fix the module, then run again.`,
      { cause: error },
    );
  }
  const flows = module["registeredFlows"];
  if (Array.isArray(flows) && flows.every(isFlowEntry)) return flows;
  const exports = Object.keys(module).join(", ") || "nothing";
  const found = flows === undefined ? "no registeredFlows" : "a registeredFlows that is not an array of flow entries";
  throw new FlowcheckError(
    "flows_module_invalid",
    `${named}, but ${shownPath(path)} exports ${found} (it exports ${exports}); export the project's flows as ` +
      `registeredFlows: readonly FlowEntry[], each { flow: defineFlow(…), scripts? }.`,
  );
}
