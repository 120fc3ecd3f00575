import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { FlowcheckError } from "../../errors.ts";
import type { SeamScript } from "./seam-request.ts";

function exported(module: Record<string, unknown>): string {
  if (!("default" in module)) {
    const names = Object.keys(module);
    return names.length === 0 ? "nothing" : `no default export (only ${names.join(", ")})`;
  }
  const value = module["default"];
  return `a default export of type ${value === null ? "null" : typeof value}`;
}

/**
 * The `SeamScript` a target's scripts module exports as its default, imported from `file` (a `.ts`
 * file too, as Node strips its types). Refused with `target_config_invalid`, naming the file, when
 * it cannot be imported or its default export is not a function.
 *
 * @param where What names the file, for the message: e.g. `model.scripts of target desk`.
 */
export async function loadSeamScript(file: string, where = "model.scripts"): Promise<SeamScript> {
  const path = resolve(file);
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (error) {
    const why = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    throw new FlowcheckError(
      "target_config_invalid",
      `The scripts module ${path} (${where}) could not be imported: ${why}. ` +
        "Fix the file, or point the setting at the module that exports the target's script.",
      { cause: error },
    );
  }
  const script = module["default"];
  if (typeof script === "function") return script as SeamScript;
  throw new FlowcheckError(
    "target_config_invalid",
    `The scripts module ${path} (${where}) exports ${exported(module)}; its default export must be the script, ` +
      "a function of the model request returning scriptedText(...), scriptedToolCalls([...]) or undefined " +
      "(export default function script(request) { … }).",
  );
}
