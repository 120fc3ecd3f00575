import { loadConfig, type Config } from "../../config.ts";
import { concurrencyOf } from "../limits/conversation-slot.ts";
import type { LoadedScenario } from "../scenario/scenario.ts";

// node:test's options that may leave a suite's tests unrun: a conversation played ahead of its
// tests would then call the provider for tests nobody asked for.
const FILTERS = /^--test-(name-pattern|skip-pattern|only)/;

export interface ParallelPlay {
  config: Config;
  concurrency: number;
}

/**
 * Whether a conversation is played ahead of its tests, within the run's slots, and how many at
 * once: undefined plays it as node:test reaches its tests. A bad environment plays it that way too,
 * and its first test reports the problem.
 */
export function parallelPlayOf(loaded: LoadedScenario): ParallelPlay | undefined {
  if (process.execArgv.some((arg) => FILTERS.test(arg))) return undefined;
  let config: Config;
  try {
    config = loadConfig(process.env, loaded.scenario.env);
  } catch {
    return undefined;
  }
  const concurrency = concurrencyOf(config);
  return concurrency === undefined ? undefined : { config, concurrency };
}
