import type { FlowEntry } from "../../engine/scripted-model.ts";
import type { FlowOutline } from "../scenario/meaning-problems.ts";
import { chooseTarget } from "../target/choose-target.ts";
import { flowOutlineOf } from "../target/flow-outline-of.ts";
import { currentRun, type CurrentRun } from "../report/current-run.ts";
import type { StartableEntry } from "../target/start/started-apps.ts";
import type { TargetEntry } from "../target/target-config.ts";
import { describeInvalidFile, describeScenarioFile } from "./describe-scenario-file.ts";

export interface TargetScenariosOptions {
  /** The run they are played in: its configuration, its targets, where it writes. Default the current one. */
  run?: CurrentRun;
  /** The project's flows (flowcheck.config.json's "flows"): a file of one of them with no target plays it in process. Default none. */
  flows?: readonly FlowEntry[];
}

/**
 * Scenario files that no flow spec describes, each played against the target of
 * flowcheck.config.json that its `target` or FLOW_TARGET names, or with neither against the
 * project's `flows` in process, as the same node:test suites a spec's are (without checks in code):
 * as `describeFlowScenarios(flow, { flows })` would play them. The config is the run's; each flow's outline (the steps its
 * target lists) is asked of the target once per target and flow (`flowOutlineOf`), so the loader
 * checks the file against it and the scenario's start checks it again without asking. A file whose
 * target cannot be chosen or asked is one failing test saying why.
 */
export async function describeTargetScenarios(
  files: readonly string[],
  options: TargetScenariosOptions = {},
): Promise<void> {
  const run = options.run ?? currentRun();
  let targets;
  let flowTarget: string | undefined;
  try {
    targets = run.targets();
    if (run.config instanceof Error) throw run.config;
    flowTarget = run.config.flowTarget;
  } catch (error) {
    for (const file of files) describeInvalidFile(file, error);
    return;
  }
  for (const file of files) {
    const header = run.scenarios.headerOf(file);
    const flowName = typeof header?.flowName === "string" ? header.flowName : undefined;
    let outline: FlowOutline | undefined;
    try {
      const chosen = chooseTarget(
        targets,
        typeof header?.target === "string" ? header.target : undefined,
        flowTarget,
        file,
      );
      if (chosen && flowName !== undefined)
        outline = await flowOutlineOf(chosen.name, await startedEntry(run, chosen), flowName, run.graphsAsked);
    } catch (error) {
      describeInvalidFile(file, error);
      continue;
    }
    describeScenarioFile(file, {
      flows: options.flows ?? [],
      targets,
      ...(outline ? { outline } : {}),
      artifactsDir: run.scope.artifactsDir,
      run,
      root: "scenarios",
    });
  }
}

/**
 * `chosen`'s entry as its server is reached: a LangGraph server is asked for its graph's nodes
 * before any conversation, so an app with a `start` is started (once for the run) to be asked.
 */
async function startedEntry(run: CurrentRun, chosen: { name: string; entry: TargetEntry }): Promise<TargetEntry> {
  const { name, entry } = chosen;
  if (entry.kind !== "langgraph" || entry.start === undefined) return entry;
  return { ...entry, baseUrl: (await run.startedApps.app(name, entry as StartableEntry)).baseUrl };
}
