import { resolve } from "node:path";

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * `targets` (an unchecked copy, changed in place) with each `start.cwd` and `model.scripts` made
 * absolute from `folder`, the config file's: the file gives them relative to itself, wherever
 * flowcheck runs. A `start` without `cwd` runs in `folder`.
 */
export function anchorStartPaths(targets: unknown, folder: string): void {
  if (!isObject(targets)) return;
  for (const entry of Object.values(targets)) {
    if (!isObject(entry)) continue;
    const { start, model } = entry;
    if (isObject(start)) start["cwd"] = resolve(folder, typeof start["cwd"] === "string" ? start["cwd"] : ".");
    if (isObject(model) && typeof model["scripts"] === "string") model["scripts"] = resolve(folder, model["scripts"]);
  }
}
