import type { Config } from "../../config.ts";
import { concurrencyOf } from "../limits/conversation-slot.ts";
import type { PlaySlot } from "../run/scenario-play.ts";

/**
 * Whether a conversation is played ahead of its tests, within the run's slots, and how many at
 * once, on the suite's configuration (`suiteConfigOf`): undefined plays it as node:test reaches its
 * tests. A bad environment (no configuration) plays it that way too, and its first test reports
 * the problem. `filtered`: the run was given node:test's filters (given to flowcheck test, or to
 * node itself for a spec it runs alone).
 */
export function parallelPlayOf(config: Config | undefined, filtered: boolean): PlaySlot | undefined {
  // A filter may leave the suite's tests unrun: a conversation played ahead of them would call the
  // provider for tests nobody asked for.
  if (!config || filtered) return undefined;
  const concurrency = concurrencyOf(config);
  return concurrency === undefined ? undefined : { config, concurrency };
}
