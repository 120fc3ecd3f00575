import type { StepStates } from "../../engine/session-document.ts";
import { matchPartial } from "./match-partial.ts";

/** How a session's `steps` are keyed: by step (our engine), or by the keys of a target's own state. */
export type StateKeys = "step" | "state key";

/**
 * The problems of one state key against what is stored: a step's state, where a step that stored
 * nothing is an empty object (`steps.NameStep.name: missing`); or a key of a target's state, any
 * JSON value, where a key that is missing is missing (`state.name: expected "Ada", found undefined`).
 */
export function stateMatch(expected: unknown, steps: StepStates, key: string, keyedBy: StateKeys): string[] {
  return keyedBy === "step"
    ? matchPartial(expected, steps[key] ?? {}, `steps.${key}`)
    : matchPartial(expected, steps[key], `state.${key}`);
}
