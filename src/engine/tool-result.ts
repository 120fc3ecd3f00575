import type { FlowShape, StepNameOf, UntypedFlow } from "./flow-types.ts";
import type { StepClass } from "./step.ts";

export interface StayResult {
  kind: "stay";
  message: string;
}

/** `To` is the step's name as written: `@tool` checks it against the flow's steps. */
export interface AdvanceResult<To extends string = string> {
  kind: "advance";
  to: To;
  /** The tool's answer to its own step's model, and the hand-off the next step's model gets. */
  message: string;
  /** The hand-off the next step's model gets instead of `message`, which its own step's model still gets. */
  handoff?: string;
}

export interface CompleteResult<Output = unknown> {
  kind: "complete";
  message: string;
  /** What a parent's `runChild` gets as `output`. */
  output: Output;
}

/** What a tool of a step of flow `F` may return. */
export type ToolResult<F extends FlowShape = UntypedFlow> =
  | StayResult
  | AdvanceResult<StepNameOf<F>>
  | CompleteResult<F["output"]>;

/** The cursor stays; `message` goes back to the model, which answers the user. */
export function stay(message: string): StayResult {
  return { kind: "stay", message };
}

/**
 * The cursor moves to the step named `next`, a step of the same flow. In a step of a typed flow
 * (`Step<State, Flow>`) the name is checked at compile time; a step class is accepted where the
 * flow is untyped.
 */
export function advance<const To extends string>(next: To, message?: string): AdvanceResult<To>;
export function advance(next: StepClass, message?: string): AdvanceResult;
export function advance(next: StepClass | string, message = "Done. Continue with the next step."): AdvanceResult {
  return { kind: "advance", to: typeof next === "string" ? next : next.name, message };
}

/**
 * The run ends with `runStatus: "completed"`; the model gives its closing answer without tools.
 * `output` is what a parent running this flow as a child gets back; in a typed flow it must be the
 * flow's declared `output`.
 */
export function complete(message?: string): CompleteResult<undefined>;
export function complete<Output>(message: string, output: Output): CompleteResult<Output>;
export function complete(message = "The flow is complete. Close the conversation.", output?: unknown): CompleteResult {
  // No `output` key without an output, so such a result is just `{ kind, message }`.
  return output === undefined
    ? ({ kind: "complete", message } as CompleteResult<undefined>)
    : { kind: "complete", message, output };
}
