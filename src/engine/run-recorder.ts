import type { FlowDefinition } from "./flow.ts";
import type { ChildRun, ExecutionEntry, MemoryAppend, MemoryEntry, RunStatus, StepStates } from "./session-document.ts";

/**
 * One run's state during a turn (the session's own run, or a child's), and the record of what the
 * turn added to it. Nothing here is persisted until the whole turn has succeeded.
 */
export class RunRecorder {
  readonly flow: FlowDefinition;
  readonly turn: number;
  currentStep: string;
  runStatus: RunStatus;
  readonly steps: StepStates;
  readonly memory: Record<string, MemoryEntry[]>;
  readonly execution: ExecutionEntry[];
  readonly memoryAppends: MemoryAppend[] = [];
  readonly executionAppends: ExecutionEntry[] = [];
  /** Where child runs are kept: the session's list, shared by every run of the session. */
  readonly children: ChildRun[];
  /** What a parent gave this run with `runChild`; its steps read it as `context.input`. */
  readonly input: unknown;
  /** What `complete(message, output)` gave, for the parent of a child run; not persisted. */
  output: unknown;

  constructor(
    flow: FlowDefinition,
    turn: number,
    state: {
      currentStep: string;
      runStatus: RunStatus;
      steps: StepStates;
      memory: Record<string, MemoryEntry[]>;
      execution: ExecutionEntry[];
      children: ChildRun[];
    },
    input?: unknown,
  ) {
    this.flow = flow;
    this.turn = turn;
    this.currentStep = state.currentStep;
    this.runStatus = state.runStatus;
    this.steps = state.steps;
    this.memory = state.memory;
    this.execution = state.execution;
    this.children = state.children;
    this.input = input;
  }

  stateOf(step: string): Record<string, unknown> {
    return (this.steps[step] ??= {});
  }

  remember(namespace: string, entry: MemoryEntry): void {
    (this.memory[namespace] ??= []).push(entry);
    this.memoryAppends.push({ namespace, entry });
  }

  log(entry: Omit<ExecutionEntry, "seq" | "turn">): void {
    const full: ExecutionEntry = { seq: this.execution.length + 1, turn: this.turn, ...entry };
    this.execution.push(full);
    this.executionAppends.push(full);
  }
}
