import type { SimulatedScenarioResult } from "./run-results.ts";

const PERCENT = new Intl.NumberFormat("en", { style: "percent", maximumFractionDigits: 1 });

/** A share as a person reads it: `60%`, `33.3%`. */
export function percent(share: number): string {
  return PERCENT.format(share);
}

/**
 * The k worth showing of `passK`: 1, 2 and its last (every try), each once; pass^k between them
 * only falls, so these say how fast.
 */
export function shownK(passK: readonly number[]): number[] {
  return [...new Set([1, 2, passK.length])].filter((k) => k >= 1 && k <= passK.length);
}

/** `pass^1 60%, pass^2 30%, pass^5 0%`. */
export function passKText(passK: readonly number[]): string {
  return shownK(passK)
    .map((k) => `pass^${k} ${percent(passK[k - 1]!)}`)
    .join(", ");
}

/** `3/5 succeeded`, and `flaky` when some tries succeeded and others did not. */
export function successText(scenario: SimulatedScenarioResult): string {
  return `${scenario.successes}/${scenario.tries} succeeded${scenario.flaky ? " · flaky" : ""}`;
}
