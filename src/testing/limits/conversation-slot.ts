import type { Config } from "../../config.ts";
import { DEFAULT_MAX_USER_TURNS, type LoadedScenario } from "../scenario/scenario.ts";
import type { Held, RunLimits } from "./run-limits.ts";

/**
 * How many conversations the run plays at once: `FLOW_CONCURRENCY`, else, when the run calls a
 * provider (live, record, or a required judge), as many as the provider limit lets requests fly
 * (`OPENAI_MAX_INFLIGHT`): a conversation waits on one request at a time, so fewer slots would
 * leave the provider's allowance unused and more would only queue. Undefined keeps a scripted or
 * replay run as it always was, each process playing its conversations as node:test reaches them.
 */
export function concurrencyOf(config: Config): number | undefined {
  if (config.limits.concurrency !== undefined) return config.limits.concurrency;
  const callsProvider =
    config.flowModel === "live" || config.flowModel === "record" || config.judge.mode === "required";
  return callsProvider ? config.limits.maxInflight : undefined;
}

/**
 * Waits for one of the run's conversation slots; a skip, saying why, once the token budget is
 * spent. Longer conversations are granted first (by turns), so the longest one does not start last
 * and hold up the end of the run.
 */
export function conversationSlot(
  limits: RunLimits,
  config: Config,
  concurrency: number,
  loaded: LoadedScenario,
): Promise<Held> {
  return limits.hold({
    kind: "conversation",
    limit: concurrency,
    maxTokens: config.limits.maxTokens,
    // A simulated user may write up to maxTurns messages: counted at most, as it may well.
    weight:
      loaded.scenario.turns.length +
      (loaded.scenario.user ? (loaded.scenario.user.maxTurns ?? DEFAULT_MAX_USER_TURNS) : 0),
  });
}
