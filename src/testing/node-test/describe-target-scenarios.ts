import { loadConfig } from "../../config.ts";
import type { FlowEntry } from "../../engine/scripted-model.ts";
import { scenarioHeaderOf } from "../scenario/scenario-discovery.ts";
import type { FlowOutline } from "../scenario/meaning-problems.ts";
import { chooseTarget } from "../target/choose-target.ts";
import { flowOutlineOf } from "../target/flow-outline-of.ts";
import { loadTargetConfig } from "../target/target-config.ts";
import { describeInvalidFile, describeScenarioFile } from "./describe-scenario-file.ts";

export interface TargetScenariosOptions {
  /** Where transcripts and results go. Default `test/.tmp`. */
  artifactsDir?: string;
  /** The environment the targets' references and FLOW_TARGET are read from. Default: this process's. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The project's flows (flowcheck.config.json's "flows"): a file of one of them with no target plays it in process. Default none. */
  flows?: readonly FlowEntry[];
}

/**
 * Scenario files that no flow spec describes, each played against the target of
 * flowcheck.config.json that its `target` or FLOW_TARGET names, or with neither against the
 * project's `flows` in process, as the same node:test suites a spec's are (without checks in code):
 * as `describeFlowScenarios(flow, { flows })` would play them. The config is read once; each flow's outline (the steps its
 * target lists) is asked of the target once per target and flow (`flowOutlineOf`), so the loader
 * checks the file against it and the scenario's start checks it again without asking. A file whose
 * target cannot be chosen or asked is one failing test saying why.
 */
export async function describeTargetScenarios(
  files: readonly string[],
  options: TargetScenariosOptions = {},
): Promise<void> {
  const env = options.env ?? process.env;
  let targets;
  let flowTarget: string | undefined;
  try {
    targets = loadTargetConfig(process.cwd(), env);
    flowTarget = loadConfig(env).flowTarget;
  } catch (error) {
    for (const file of files) describeInvalidFile(file, error);
    return;
  }
  for (const file of files) {
    const header = scenarioHeaderOf(file);
    const flowName = typeof header?.flowName === "string" ? header.flowName : undefined;
    let outline: FlowOutline | undefined;
    try {
      const chosen = chooseTarget(
        targets,
        typeof header?.target === "string" ? header.target : undefined,
        flowTarget,
        file,
      );
      if (chosen && flowName !== undefined) outline = await flowOutlineOf(chosen.name, chosen.entry, flowName);
    } catch (error) {
      describeInvalidFile(file, error);
      continue;
    }
    describeScenarioFile(file, {
      flows: options.flows ?? [],
      targets,
      ...(outline ? { outline } : {}),
      ...(options.artifactsDir ? { artifactsDir: options.artifactsDir } : {}),
      root: "scenarios",
    });
  }
}
