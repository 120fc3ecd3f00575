import type { SessionHead } from "../../engine/session-document.ts";
import type { FlowShape, StepNameOf, UntypedFlow } from "../../engine/flow-types.ts";
import type { FlowMark, StepStateOf } from "./flow-document.ts";

/**
 * The state a step owns in a stored session (whole, or its head as a turn check gets it), for
 * domain checks in code. In the checks of `describeFlowScenarios(SomeFlow, …)` the step's name is
 * checked against the flow's steps at compile time and the result has the step's state type; a
 * session of a flow described by its name has any step name and untyped state. Throws, naming the
 * steps that have state, when the step has none.
 *
 * @example
 * assert.equal(stepState(document, "WeatherStep").city_LA, 72);
 */
export function stepState<F extends FlowShape = UntypedFlow, S extends StepNameOf<F> = StepNameOf<F>>(
  document: Pick<SessionHead, "id" | "steps"> & FlowMark<F>,
  step: S,
): StepStateOf<NoInfer<F>, NoInfer<S>> {
  const state = document.steps[step];
  if (state === undefined) {
    const owners = Object.keys(document.steps);
    throw new Error(
      `${step} has no state in session ${document.id}; ` +
        `${owners.length ? `the steps with state are ${owners.join(", ")}` : "no step has state"}.`,
    );
  }
  return state as StepStateOf<NoInfer<F>, NoInfer<S>>;
}
