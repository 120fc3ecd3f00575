import type { StepClass } from "./step.ts";

/** What a flow's steps may know of it, at compile time only: see `FlowTypes`. */
export interface FlowShape {
  /** The flow's step classes by name. */
  steps: object;
  services: unknown;
  input: unknown;
  output: unknown;
}

/** A flow that declares no types: any step name, services and output of unknown shape. */
export interface UntypedFlow extends FlowShape {
  steps: Readonly<Record<string, StepClass>>;
}

/**
 * A flow's types, declared once from its steps object, for its steps to name: `Step<State, Flow>`
 * checks `advance("Name")`, types `stateOf("Name")`, `context.services` and `context.input`, and
 * what `complete(message, output)` must give. `More` lists the services the flow is defined with,
 * the input a parent gives it as a child and the output its `complete` hands back (each `undefined`
 * when not listed).
 *
 * The step classes are named through `typeof steps` of a plain object, not through the flow: the
 * steps' own types refer to these types, and a type worked out from `defineFlow(...)` would then
 * refer to itself.
 *
 * @example
 * const steps = { RatingStep, CommentStep };
 * export interface FeedbackFlowTypes extends FlowTypes<typeof steps, { services: FeedbackServices }> {}
 * export const FeedbackFlow = defineFlow<FeedbackFlowTypes>({ name: "FeedbackFlow", description: "…", steps, services });
 */
export interface FlowTypes<
  Steps extends object,
  More extends { services?: unknown; input?: unknown; output?: unknown } = {},
> extends FlowShape {
  steps: Steps;
  services: More extends { services: infer T } ? T : undefined;
  input: More extends { input: infer T } ? T : undefined;
  output: More extends { output: infer T } ? T : undefined;
}

/** The names of a flow's steps: `"RatingStep" | "CommentStep"`, or `string` for an untyped flow. */
export type StepNameOf<F extends FlowShape> = keyof F["steps"] & string;

/** The state type a step class declares with `Step<State>`. */
export type StateOfStep<C> = C extends abstract new () => { readonly "~state"?: infer S }
  ? S extends object
    ? S
    : never
  : never;

/** `T`, read-only all the way down: what `stateOf` hands out is a frozen copy. */
export type DeepReadonly<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends readonly (infer E)[]
    ? readonly DeepReadonly<E>[]
    : T extends object
      ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
      : T;
