import { loadConfig, type Config } from "../../config.ts";
import type { LoadedScenario } from "../scenario/scenario.ts";
import { scenarioEnvOf } from "../scenario/scenario-env.ts";

/**
 * The configuration a scenario's suite is defined with: the environment over the scenario's env
 * defaults, read once for the suite. Undefined when it is not valid (or the scenario sets a run
 * setting): the run then reports every problem, in the suite's first test.
 */
export function suiteConfigOf(loaded: LoadedScenario, source: Readonly<Record<string, string | undefined>> = process.env): Config | undefined {
  try {
    return loadConfig(source, scenarioEnvOf(loaded));
  } catch {
    return undefined;
  }
}
