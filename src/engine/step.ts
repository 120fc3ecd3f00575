import type { Moment } from "moment";
import type { FlowDefinition } from "./flow.ts";
import type { DeepReadonly, FlowShape, StateOfStep, StepNameOf, UntypedFlow } from "./flow-types.ts";
import type { RunStatus, StepStates } from "./session-document.ts";

/**
 * What a child run left behind, as its parent's tool sees it: `output` is what the child's
 * `complete(message, output)` gave, when it completed.
 */
export type ChildOutcome<Output = unknown> =
  | { runStatus: "completed"; output: Output; steps: StepStates; reply: string }
  | {
      runStatus: Exclude<RunStatus, "completed">;
      output: undefined;
      steps: StepStates;
      /** The child model's last answer: why it stopped. */
      reply: string;
    };

/** What a parent sends a child: the message its model answers, and the input its steps read. */
export type ChildRequest<F extends FlowShape> = { message: string } & (undefined extends F["input"]
  ? { input?: F["input"] }
  : { input: F["input"] });

type TypesOf<D> = D extends FlowDefinition<infer F> ? F : never;

/** Another step's state as `stateOf` returns it: a frozen copy. */
type StateView<F extends FlowShape, K extends string> =
  string extends StepNameOf<F>
    ? Readonly<Record<string, unknown>>
    : DeepReadonly<StateOfStep<F["steps"][K & keyof F["steps"]]>>;

/** What a step's prompt and tools can see and do during a turn. */
export interface StepContext<S extends object = Record<string, unknown>, F extends FlowShape = UntypedFlow> {
  readonly flow: string;
  readonly step: string;
  /** This step's own state; a tool changes it in place and the turn persists it. */
  readonly state: S;
  /**
   * Another step's state, by class or name: a frozen copy, so a write throws instead of changing
   * the session; `{}` when the step has none yet.
   */
  stateOf<C extends StepClass>(step: C): DeepReadonly<StateOfStep<C>>;
  stateOf<K extends StepNameOf<F>>(step: K): StateView<F, K>;
  /** The flow's clock: its `<FLOW>_CURRENT_DATE` pin when set, else the real time. */
  now(): Moment;
  /**
   * The environment the app was configured with, a scenario's `env` defaults included. Read a
   * flow's own settings here, not from the process's environment, which a scenario's defaults never reach.
   */
  readonly env: Readonly<Record<string, string>>;
  /** What the flow was defined with as `services` (`defineFlow({ services })`). */
  readonly services: F["services"];
  /** What the parent gave this run as `input` in `runChild`; `undefined` for a top-level run. */
  readonly input: F["input"];
  /** `runChild(flow, { message })`, for a child that takes no input. */
  runChild<D extends FlowDefinition<FlowShape>>(
    flow: undefined extends TypesOf<D>["input"] ? D : never,
    message: string,
  ): Promise<ChildOutcome<TypesOf<D>["output"]>>;
  /**
   * Runs `flow` as a child of this step: its first step's model answers `message`, and its steps
   * read `input`. It never moves this run's cursor. Resolves to the child's outcome, with the
   * `output` its `complete` gave.
   */
  runChild<D extends FlowDefinition<FlowShape>>(
    flow: D,
    request: ChildRequest<TypesOf<D>>,
  ): Promise<ChildOutcome<TypesOf<D>["output"]>>;
}

/**
 * A step of a flow: a system prompt, the state it owns under `steps.<ClassName>`, and the tools
 * declared on it with `@tool(...)`. `F` is its flow's `FlowTypes`: with it, `advance("Name")`
 * and `stateOf("Name")` are checked against the flow's step names, and `context.services`,
 * `context.input` and `complete`'s output are typed.
 *
 * @example
 * class NameStep extends Step<NameState, BasicFlowTypes> {
 *   systemPrompt() { return "Ask for the user's name and call save_name."; }
 *   \@tool({ name: "save_name", description: "Save the name", parameters: { ... } })
 *   saveName(args: { name: string }, context: StepContext<NameState, BasicFlowTypes>) { ... }
 * }
 */
export abstract class Step<S extends object = Record<string, unknown>, F extends FlowShape = UntypedFlow> {
  /** Carries the state type for `@tool`'s checks; never set at run time. */
  declare readonly "~state"?: S;
  /** Carries the flow's types for `@tool`'s checks; never set at run time. */
  declare readonly "~flow"?: F;

  abstract systemPrompt(context: StepContext<S, F>): string;
}

// The state and flow types are erased here: a flow holds steps of many state types.
export type StepClass = new () => Step<any, any>;
