import type { ScenarioTarget } from "../target/scenario-target.ts";

/**
 * Why a turn with a model fault (`key`, the turn's `failModelCall` or `modelFault`) is not played on
 * `target`: it lacks the `faults` capability, which only the app in the test process has.
 * Undefined when it has it.
 */
export function faultsMissing(target: ScenarioTarget, key: "failModelCall" | "modelFault"): string | undefined {
  if (target.capabilities?.faults) return undefined;
  const elsewhere = target.description.elsewhere ?? "FLOW_BASE_URL";
  return `${key} needs the app in the test process; against ${elsewhere} the turn is not played`;
}
