import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** The npm scripts a team adds to run flowcheck, by name: its runs, and the judge's labelling and calibration. */
export const INIT_SCRIPTS: Readonly<Record<string, string>> = {
  "test:flows": "flowcheck test",
  "flows:check": "flowcheck check",
  "judge:label": "flowcheck judge label",
  "judge:calibrate": "flowcheck judge calibrate",
};

/** What `flowcheck init` does with `<cwd>/package.json`. */
export type PackageScripts =
  /** No package.json: the scripts are printed to add by hand. */
  | { kind: "none" }
  /** The file as it is to be written, the scripts added. */
  | { kind: "add"; text: string }
  /** What keeps the scripts from being added, each with what to do. */
  | { kind: "refused"; problems: string[] };

/** package.json with INIT_SCRIPTS added, in its 2-space JSON; refused when it does not parse or has a script of the same name. */
export function packageScripts(cwd: string): PackageScripts {
  const path = join(cwd, "package.json");
  if (!existsSync(path)) return { kind: "none" };
  let manifest: { scripts?: Record<string, string> } & Record<string, unknown>;
  try {
    manifest = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    return { kind: "refused", problems: [`package.json is not valid JSON (${(error as Error).message}): fix it.`] };
  }
  const scripts = manifest.scripts ?? {};
  const taken = Object.keys(INIT_SCRIPTS).filter((name) => name in scripts);
  if (taken.length) {
    return {
      kind: "refused",
      problems: taken.map(
        (name) =>
          `package.json has a script "${name}" already ("${scripts[name]}"): rename it, or remove it if it is an older flowcheck one.`,
      ),
    };
  }
  const text = `${JSON.stringify({ ...manifest, scripts: { ...scripts, ...INIT_SCRIPTS } }, null, 2)}\n`;
  return { kind: "add", text };
}
