import { loadConfig, modelModeOf, type Config } from "../../config.ts";
import type { LoadedScenario } from "../scenario/scenario.ts";
import type { ScenarioSuiteOptions } from "./describe-scenarios.ts";

/**
 * Why a scenario tagged `live-only` cannot run now: its flow would run on the scripted model. Read
 * when the suite is defined, with the scenario's env defaults under what is already set.
 */
export function liveOnlySkip(loaded: LoadedScenario, options: ScenarioSuiteOptions): string | undefined {
  if (!loaded.scenario.tags?.includes("live-only")) return undefined;
  const flow = options.flows.find((entry) => entry.flow.name === loaded.scenario.flowName)!.flow;
  let config: Config;
  try {
    config = loadConfig(undefined, loaded.scenario.env);
  } catch {
    // The run itself reports the bad environment, with every problem.
    return undefined;
  }
  if (modelModeOf(config, flow.envPrefix, "scripted") !== "scripted") return undefined;
  const why = !config.openai.apiKey ? "no OPENAI_API_KEY is set" : config.flowModel ? `FLOW_MODEL=${config.flowModel}` : "FLOW_MODEL is not set";
  return `live-only scenario: ${flow.name} would run on its scripted model (${why}); run it with FLOW_MODEL=live, record or replay`;
}
