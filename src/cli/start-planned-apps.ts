import { isFlowcheckError } from "../errors.ts";
import type { ScenarioCatalog } from "../testing/scenario/scenario-catalog.ts";
import type { StartableEntry } from "../testing/target/start/started-apps.ts";
import type { Plan, PlayedRun, RunSettings } from "./play-specs.ts";
import type { PlanProblem } from "./plan-problem.ts";

/**
 * The names of the targets `plan`'s scenario files are played against: each file's `target`, else
 * FLOW_TARGET (`flowTarget`); FLOW_TARGET alone when the run names spec files only, whose
 * scenarios are not known before they are imported.
 */
function plannedTargets(plan: Plan, flowTarget: string | undefined, scenarios: ScenarioCatalog): Set<string> {
  const files = plan.scenarioPaths ? scenarios.selected(plan.scenarioPaths).files : [];
  const named = files.map((file) => {
    const target = scenarios.headerOf(file)?.target;
    return typeof target === "string" ? target : flowTarget;
  });
  if (!plan.scenarioPaths) named.push(flowTarget);
  return new Set(named.filter((name) => name !== undefined));
}

/**
 * Starts the apps of the targets with a `start` that `plan`'s scenarios use, before anything plays,
 * so that an app that does not start stops the run at once: then every app is stopped again and
 * the problem (exit 2) quotes why. A target a spec file alone uses starts when first played.
 */
export async function startPlannedApps(
  run: PlayedRun,
  { config, targets }: RunSettings,
  plan: Plan,
  scenarios: ScenarioCatalog,
): Promise<PlanProblem | undefined> {
  const startable = [...plannedTargets(plan, config.flowTarget, scenarios)].flatMap((name) => {
    const entry = targets?.targets[name];
    return entry?.start ? [{ name, entry: entry as StartableEntry }] : [];
  });
  try {
    await Promise.all(startable.map(({ name, entry }) => run.startedApps.app(name, entry)));
    return undefined;
  } catch (error) {
    await run.startedApps.closeAll();
    if (!isFlowcheckError(error)) throw error;
    return {
      problem: [`flowcheck test: stopped before playing anything: ${error.code}: ${error.message}`],
      exitCode: 2,
    };
  }
}
