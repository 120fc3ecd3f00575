import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { FlowcheckError } from "../../errors.ts";
import { assertNameFree, flowNamesOf, type FlowNames } from "./flow-name.ts";
import { entrySource, flowSource, scriptsSource } from "./flow-sources.ts";
import { choiceStepSource, noteStepSource } from "./flow-step-sources.ts";
import { scenarioSource, specSource } from "./flow-test-sources.ts";
import { registerTeamFlow } from "./register-team-flow.ts";

export const TEAM_FLOWS = join("src", "flows", "team-flows.ts");

/** What new:flow writes: new files by path (relative to the repository root), and the registry it rewrites. */
export interface ScaffoldPlan {
  names: FlowNames;
  created: Map<string, string>;
  registry: { path: string; text: string };
}

/** Every file of `flowName`'s scaffold under `root`, checked and composed before anything is written. */
export function planScaffold(root: string, flowName: string | undefined): ScaffoldPlan {
  const names = flowNamesOf(flowName);
  const folder = join("src", "flows", names.folder);
  const created = new Map([
    [join(folder, "choice-step.ts"), choiceStepSource(names)],
    [join(folder, "note-step.ts"), noteStepSource(names)],
    [join(folder, `${names.kebab}.ts`), flowSource(names)],
    [join(folder, `${names.kebab}-scripts.ts`), scriptsSource(names)],
    [join(folder, "index.ts"), entrySource(names)],
    [join("scenarios", `${names.kebab}.scenario.json`), scenarioSource(names)],
    [join("test", "flows", `${names.kebab}.spec.ts`), specSource(names)],
  ]);
  assertNameFree(root, names, [folder, ...created.keys()]);
  const registry = join(root, TEAM_FLOWS);
  if (!existsSync(registry)) {
    throw new FlowcheckError(
      "team_flows_unreadable",
      `${TEAM_FLOWS} is missing: new:flow registers ${names.flow} there. Restore it (see docs/first-flow.md, step 4), then run new:flow again.`,
    );
  }
  return {
    names,
    created,
    registry: { path: TEAM_FLOWS, text: registerTeamFlow(readFileSync(registry, "utf8"), names, TEAM_FLOWS) },
  };
}

/** Writes the plan, all or nothing: on a failed write, what was written is removed and the registry restored. */
export function writeScaffold(root: string, plan: ScaffoldPlan): void {
  const registry = join(root, plan.registry.path);
  const before = readFileSync(registry, "utf8");
  const written: string[] = [];
  const folder = join(root, "src", "flows", plan.names.folder);
  try {
    for (const [path, text] of plan.created) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text, { flag: "wx" });
      written.push(join(root, path));
    }
    writeFileSync(registry, plan.registry.text);
  } catch (error) {
    for (const file of written) rmSync(file, { force: true });
    rmSync(folder, { recursive: true, force: true });
    writeFileSync(registry, before);
    throw error;
  }
}
