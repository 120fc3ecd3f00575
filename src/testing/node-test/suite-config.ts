import { loadConfig, type Config } from "../../config.ts";
import type { LoadedScenario } from "../scenario/scenario.ts";
import { scenarioEnvOf } from "../scenario/scenario-env.ts";

/**
 * The configuration a scenario's suite is defined and played with: the environment over the
 * scenario's env defaults, read once for the suite. When it is not valid (or the scenario sets a
 * run setting), the error itself, which the suite's first test reports with every problem.
 */
export function suiteConfigOf(
  loaded: LoadedScenario,
  source: Readonly<Record<string, string | undefined>> = process.env,
): Config | Error {
  try {
    return loadConfig(source, scenarioEnvOf(loaded));
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}
