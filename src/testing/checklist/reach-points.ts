import { missing, proved, type ChecklistPoint } from "./checklist.ts";
import type { FlowEvidence } from "./flow-evidence.ts";

/** steps: every step of the flow had a session on it (from the stored sessions' coverage). */
export function stepsPoint({ flow, coverage }: FlowEvidence): ChecklistPoint {
  const never = flow.stepNames.filter((step) => !coverage?.steps[step]);
  if (never.length) return missing("steps", `no scenario reached ${never.join(", ")}: add turns that get there`);
  return proved("steps", `all ${flow.stepNames.length} steps reached`);
}

/**
 * transitions: the moves from step to step the run took, against those the flow can make. A flow
 * declares no transitions, so those it can make are the ones seen: a step other than the last that
 * was never left is the move still to take.
 */
export function transitionsPoint({ flow, coverage }: FlowEvidence): ChecklistPoint {
  const taken = coverage?.transitions ?? [];
  const left = new Set(taken.map((move) => move.split("→")[0]));
  const ends = new Set(
    Object.entries(coverage?.tools ?? {})
      .filter(([, outcomes]) => outcomes.includes("complete"))
      .map(([tool]) => tool.split(".")[0]),
  );
  const stuck = flow.stepNames.filter((step) => !left.has(step) && !ends.has(step) && step !== flow.stepNames.at(-1));
  const list = taken.length ? taken.join(", ") : "none";
  if (stuck.length)
    return missing("transitions", `taken: ${list}; never left ${stuck.join(", ")}: add the turn that moves on from it`);
  return proved("transitions", `taken: ${list}`);
}
