import { passKText, successText } from "./pass-k-shown.ts";
import type { SimulatedSummary } from "./run-results.ts";

/**
 * The simulated users' block of a run's summary: per scenario its successes over its tries and
 * pass^k, flaky ones marked, then the run's pass^k; nothing when no conversation was simulated.
 *
 * @example
 * simulatedLines(results.simulated);
 * // ["simulated users: successes over tries and pass^k, the chance k tries all succeed:",
 * //  "  booking  3/5 succeeded · flaky  pass^1 60%, pass^2 30%, pass^5 0%", "  run      pass^1 60%, …"]
 */
export function simulatedLines(summary: SimulatedSummary | undefined): string[] {
  if (!summary) return [];
  const width = Math.max(3, ...summary.scenarios.map((scenario) => scenario.name.length));
  return [
    "simulated users: successes over tries and pass^k, the chance k tries all succeed:",
    ...summary.scenarios.map(
      (scenario) =>
        `  ${scenario.name.padEnd(width)}  ${successText(scenario)}${scenario.tries ? `  ${passKText(scenario.passK)}` : ""}`,
    ),
    `  ${"run".padEnd(width)}  ${passKText(summary.passK) || "no simulated conversation ran"}`,
  ];
}
