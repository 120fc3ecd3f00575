import type { FlowShape, StateOfStep, StepNameOf, UntypedFlow } from "../../engine/flow-types.ts";
import type { SessionView, SessionViewHead } from "./session-view.ts";

/**
 * Marks what a check in code is handed with the types of the flow it came from, so that
 * `stepState(document, "LineItemsStep")` checks the name and gives the step's state type. The mark
 * is a type only, never set at run time: the stored session is a plain `SessionView`.
 */
export interface FlowMark<F extends FlowShape> {
  readonly "~flow"?: F;
}

/** The whole stored session of a flow `F`, as a `domain` check gets it: `turns` unset where the target keeps no count. */
export type FlowDocument<F extends FlowShape = UntypedFlow> = SessionView & FlowMark<F>;

/** The stored head of a session of flow `F`, as an `eachTurn` check gets it: `turns` unset where the target keeps no count. */
export type FlowHead<F extends FlowShape = UntypedFlow> = SessionViewHead & FlowMark<F>;

/** The state step `S` of flow `F` stores; for an untyped flow (any step name), a record of unknowns. */
export type StepStateOf<F extends FlowShape, S extends string> =
  string extends StepNameOf<F> ? Record<string, unknown> : StateOfStep<F["steps"][S & keyof F["steps"]]>;
