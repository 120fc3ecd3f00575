import type { SessionHead } from "../../engine/session-document.ts";

/**
 * The state a step owns in a stored session (whole, or its head as a turn check gets it), for
 * domain checks in code. Throws, naming the steps that have state, when the step has none.
 *
 * @example
 * assert.equal(stepState(document, "WeatherStep")["city_LA"], 72);
 */
export function stepState<T = Record<string, unknown>>(document: Pick<SessionHead, "id" | "steps">, step: string): T {
  const state = document.steps[step];
  if (state === undefined) {
    const owners = Object.keys(document.steps);
    throw new Error(`${step} has no state in session ${document.id}; ${owners.length ? `the steps with state are ${owners.join(", ")}` : "no step has state"}.`);
  }
  return state as T;
}
