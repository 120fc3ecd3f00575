import type { Config } from "../../config.ts";

/**
 * How many times a conversation is played and the share of runs each of its tests must pass: `asked`
 * (the spec's `repeat`, else the run's `--repeat`), else `FLOW_REPEAT`, and `FLOW_PASS_RATE` of the suite's configuration (a
 * scenario's env may set the pass rate). One run must simply pass. With no configuration (a bad
 * environment), one run, which reports every problem.
 */
export function repeatOf(config: Config | undefined, asked?: number): { times: number; passRate: number } {
  const times = asked ?? config?.repeat ?? 1;
  return { times, passRate: times > 1 && config ? config.passRate : 1 };
}
