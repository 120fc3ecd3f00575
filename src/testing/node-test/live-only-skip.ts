import { modelModeOf, type Config } from "../../config.ts";
import type { LoadedScenario } from "../scenario/scenario.ts";
import type { SuiteOptions } from "./suite-options.ts";

/**
 * Why a scenario tagged `live-only` cannot run now: its flow would run on the scripted model. Read
 * when the suite is defined, on its configuration (`suiteConfigOf`); with none (a bad environment)
 * the run itself reports the problems.
 */
export function liveOnlySkip(
  loaded: LoadedScenario,
  options: SuiteOptions,
  config: Config | undefined,
): string | undefined {
  if (!loaded.scenario.tags?.includes("live-only") || !config) return undefined;
  const flow = options.flows.find((entry) => entry.flow.name === loaded.scenario.flowName)!.flow;
  if (modelModeOf(config, flow.envPrefix, "scripted") !== "scripted") return undefined;
  const why = !config.openai.apiKey
    ? "no OPENAI_API_KEY is set"
    : config.flowModel
      ? `FLOW_MODEL=${config.flowModel}`
      : "FLOW_MODEL is not set";
  return `live-only scenario: ${flow.name} would run on its scripted model (${why}); run it with FLOW_MODEL=live, record or replay`;
}
