import type { Scenario } from "./scenario.ts";

/** A step a scenario names, and where: `path` is as the loader reports it, `turn` the turn's index. */
export interface StepReference {
  path: string;
  step: string;
  turn?: number;
  /**
   * The name keys state (expectState, finalState, finalMemory): a step of our engine's flows, which
   * keep state by step, but a state key of a target of another kind.
   */
  state?: true;
}

/**
 * Every step of its flow that a scenario names (expectedActiveStep, expectState, finalState and
 * success's, finalExecution, a child run's parentStep, a finalMemory namespace other than `flow`), in file
 * order: the loader checks them against the registered flow, and the runner against the flow the
 * target lists.
 */
export function stepReferences(scenario: Scenario): StepReference[] {
  const references: StepReference[] = [];
  // `?? []` and the label's guard: the loader also reads a file whose turns the schema refused.
  (scenario.turns ?? []).forEach((turn, index) => {
    const at = (path: string) =>
      turn.label === undefined ? `turns[${index}].${path}` : `turns[${index}].${path} (turn "${turn.label}")`;
    if (turn.expectedActiveStep !== undefined)
      references.push({ path: at("expectedActiveStep"), step: turn.expectedActiveStep, turn: index });
    for (const step of Object.keys(turn.expectState ?? {}))
      references.push({ path: at(`expectState.${step}`), step, turn: index, state: true });
  });
  for (const step of Object.keys(scenario.finalState ?? {}))
    references.push({ path: `finalState.${step}`, step, state: true });
  for (const step of Object.keys(scenario.success?.finalState ?? {}))
    references.push({ path: `success.finalState.${step}`, step, state: true });
  scenario.finalExecution?.forEach((entry, index) => {
    if (typeof entry["step"] === "string")
      references.push({ path: `finalExecution[${index}].step`, step: entry["step"] });
  });
  scenario.finalChildren?.forEach((child, index) => {
    if (typeof child["parentStep"] === "string")
      references.push({ path: `finalChildren[${index}].parentStep`, step: child["parentStep"] });
  });
  for (const namespace of Object.keys(scenario.finalMemory ?? {})) {
    if (namespace !== "flow") references.push({ path: `finalMemory.${namespace}`, step: namespace, state: true });
  }
  return references;
}
