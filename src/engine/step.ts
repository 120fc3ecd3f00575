import type { Moment } from "moment";
import type { FlowDefinition } from "./flow.ts";
import type { RunStatus, StepStates } from "./session-document.ts";

/** What a child run left behind, as its parent's tool sees it. */
export interface ChildOutcome {
  runStatus: RunStatus;
  steps: StepStates;
  /** The child model's last answer: why it stopped, when it did not complete. */
  reply: string;
}

/** What a step's prompt and tools can see and do during a turn. */
export interface StepContext<S extends object = Record<string, unknown>> {
  readonly flow: string;
  readonly step: string;
  /** This step's own state; a tool changes it in place and the turn persists it. */
  readonly state: S;
  /** Another step's state, read-only. */
  stateOf(step: StepClass | string): Readonly<Record<string, unknown>>;
  /** The flow's clock: its `<FLOW>_CURRENT_DATE` pin when set, else the real time. */
  now(): Moment;
  /**
   * The environment the app was configured with, a scenario's `env` defaults included. Read a
   * flow's own settings here, not from the process's environment, which a scenario's defaults never reach.
   */
  readonly env: Readonly<Record<string, string>>;
  /** Runs `flow` as a child of this step with one message; it never moves this run's cursor. */
  runChild(flow: FlowDefinition, message: string): Promise<ChildOutcome>;
}

/**
 * A step of a flow: a system prompt, the state it owns under `steps.<ClassName>`, and the tools
 * declared on it with `@tool(...)`.
 *
 * @example
 * class NameStep extends Step<{ name?: string }> {
 *   systemPrompt() { return "Ask for the user's name and call save_name."; }
 *   \@tool({ name: "save_name", description: "Save the name", parameters: { ... } })
 *   saveName(args: { name: string }, ctx: StepContext<{ name?: string }>) { ... }
 * }
 */
export abstract class Step<S extends object = Record<string, unknown>> {
  /** Carries the state type for `@tool`'s checks; never set at run time. */
  declare readonly "~state"?: S;

  abstract systemPrompt(context: StepContext<S>): string;
}

// The state type is erased here: a flow holds steps of many state types.
export type StepClass = new () => Step<any>;
