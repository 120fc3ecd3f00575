import type { Mutant, ToolMutant } from "./mutant.ts";
import type { BaselineObservations, ToolObservation } from "./baseline-observations.ts";

/** A mutant, and the scenarios whose unmutated runs went through the place it changes: only they can notice it. */
export interface PlannedMutant {
  mutant: Mutant;
  scenarios: string[];
}

/** A flow's step names in its order (a child flow's too). */
export type StepOrder = (flow: string) => readonly string[];

function toolMutants(tool: ToolObservation, stepsOf: StepOrder): ToolMutant[] {
  const place = `${tool.flow}/${tool.step}/${tool.tool}`;
  const at = { flow: tool.flow, step: tool.step, tool: tool.tool };
  const mutants: ToolMutant[] = [];
  for (const key of tool.keys) {
    mutants.push({ ...at, id: `${place}: drop state.${key}`, change: { kind: "drop-write", key } });
    mutants.push({ ...at, id: `${place}: change state.${key}`, change: { kind: "change-value", key } });
  }
  const steps = stepsOf(tool.flow);
  if (tool.outcomes.includes("advance")) {
    mutants.push({ ...at, id: `${place}: advance → stay`, change: { kind: "advance-to-stay" } });
    // Its own step would be a stay by another name: the first step it neither is nor went to.
    const elsewhere = steps.find((step) => step !== tool.step && !tool.advancedTo.includes(step));
    if (elsewhere)
      mutants.push({
        ...at,
        id: `${place}: advance → ${elsewhere}`,
        change: { kind: "advance-elsewhere", to: elsewhere },
      });
  }
  if (tool.outcomes.includes("stay")) {
    const next = steps[steps.indexOf(tool.step) + 1];
    if (next)
      mutants.push({ ...at, id: `${place}: stay → advance ${next}`, change: { kind: "stay-to-advance", to: next } });
  }
  if (tool.outcomes.includes("complete"))
    mutants.push({ ...at, id: `${place}: withhold complete`, change: { kind: "withhold-complete" } });
  return mutants;
}

/** One mutant per change the observed runs make possible, each with an id stable across runs. */
export function generateMutants(observed: BaselineObservations, stepsOf: StepOrder): PlannedMutant[] {
  const planned: PlannedMutant[] = [];
  for (const tool of observed.tools)
    for (const mutant of toolMutants(tool, stepsOf)) planned.push({ mutant, scenarios: tool.scenarios });
  for (const { flow, step, scenarios } of observed.handoffs)
    planned.push({
      mutant: { id: `${flow}/${step}: drop handoff`, flow, step, change: { kind: "drop-handoff" } },
      scenarios,
    });
  for (const { flow, step, child, scenarios } of observed.children) {
    const at = { flow, step, child };
    planned.push({
      mutant: { ...at, id: `${flow}/${step}: skip child ${child}`, change: { kind: "skip-child" } },
      scenarios,
    });
    planned.push({
      mutant: { ...at, id: `${flow}/${step}: drop output of child ${child}`, change: { kind: "drop-child-output" } },
      scenarios,
    });
  }
  for (const { flow, mediaType, scenarios } of observed.shapes)
    planned.push({
      mutant:
        mediaType === "text/event-stream"
          ? { id: `${flow}: alter event stream`, flow, change: { kind: "alter-stream" } }
          : { id: `${flow}: alter ${mediaType} rendering`, flow, change: { kind: "alter-render", mediaType } },
      scenarios,
    });
  return planned;
}
