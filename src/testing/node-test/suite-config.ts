import { derivedConfig, type Config, type Environment } from "../../config.ts";
import type { LoadedScenario } from "../scenario/scenario.ts";
import { scenarioEnvOf } from "../scenario/scenario-env.ts";

/**
 * The configuration a scenario's suite is defined and played with: the run's environment over the
 * scenario's env defaults, derived once for the suite. When it is not valid (or the scenario sets a
 * run setting), the error itself, which the suite's first test reports with every problem.
 */
export function suiteConfigOf(loaded: LoadedScenario, environment: Environment): Config | Error {
  try {
    return derivedConfig(environment, { defaults: scenarioEnvOf(loaded) });
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}
