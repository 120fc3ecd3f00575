import { loadConfig, type Config } from "../../config.ts";
import type { LoadedScenario } from "../scenario/scenario.ts";

/**
 * The configuration a scenario's suite is defined with: the environment over the scenario's env
 * defaults, read once for the suite. Undefined when it is not valid: the run then reports every
 * problem, in the suite's first test.
 */
export function suiteConfigOf(loaded: LoadedScenario): Config | undefined {
  try {
    return loadConfig(undefined, loaded.scenario.env);
  } catch {
    return undefined;
  }
}
