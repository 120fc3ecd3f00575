import type { ChildRun } from "./child-run.ts";
import type { PackedInstall } from "./packed-install.ts";

// A team runs the installed package as `npx flowcheck …`. npx finds the project's bin; offline, with
// a registry nothing answers at, it never asks the registry for anything it lacks.

/** The environment that keeps npm and npx offline in a project of `packedInstall()`. */
export const NPX_OFFLINE: Readonly<Record<string, string>> = {
  npm_config_offline: "true",
  npm_config_registry: "http://127.0.0.1:9/",
};

/** `npx flowcheck <args>` in `project`, offline, plus `env`. */
export function npxFlowcheck(
  project: PackedInstall,
  args: string[],
  env: Record<string, string> = {},
): Promise<ChildRun> {
  return project.run("npx", ["flowcheck", ...args], { ...NPX_OFFLINE, ...env });
}

/** `line` run by `/bin/sh -c` in `project` (or `cwd`) as a user types it there, npm and npx offline. */
export function shellIn(project: PackedInstall, line: string, cwd?: string): Promise<ChildRun> {
  return project.run("/bin/sh", ["-c", line], { ...NPX_OFFLINE }, cwd);
}
