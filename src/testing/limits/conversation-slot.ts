import type { Config } from "../../config.ts";
import { runLimits, type Held } from "./run-limits.ts";

/** FLOW_CONCURRENCY's default for runs bound by a provider's latency. */
export const DEFAULT_CONCURRENCY = 8;

/**
 * How many conversations the run plays at once: `FLOW_CONCURRENCY`, else 8 when the run calls a
 * provider (live, record, or a required judge); undefined keeps a scripted or replay run as it
 * always was, each process playing its conversations one after another as node:test reaches them.
 */
export function concurrencyOf(config: Config): number | undefined {
  if (config.limits.concurrency !== undefined) return config.limits.concurrency;
  const callsProvider = config.flowModel === "live" || config.flowModel === "record" || config.judge.mode === "required";
  return callsProvider ? DEFAULT_CONCURRENCY : undefined;
}

/** Waits for one of the run's conversation slots; a skip, saying why, once the token budget is spent. */
export function conversationSlot(config: Config, concurrency: number): Promise<Held> {
  return runLimits(config).hold({ kind: "conversation", limit: concurrency, maxTokens: config.limits.maxTokens });
}
