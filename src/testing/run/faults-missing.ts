import type { ScenarioTarget } from "../target/scenario-target.ts";

/**
 * Why a turn with a model fault (`key`, the turn's `failModelCall` or `modelFault`) is not played on
 * `target`: it lacks the `faults` capability of the app in the test process, and the `seam` of a
 * target whose model flowcheck serves.
 * Undefined when it has either.
 */
export function faultsMissing(target: ScenarioTarget, key: "failModelCall" | "modelFault"): string | undefined {
  if (target.capabilities?.faults || target.capabilities?.seam) return undefined;
  const elsewhere = target.description.elsewhere ?? "FLOW_BASE_URL";
  return (
    `${key} needs the app in the test process, or a target whose model flowcheck serves (its entry's "start" and "model"); ` +
    `against ${elsewhere} the turn is not played`
  );
}
