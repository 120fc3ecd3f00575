/** The shapes the engine persists. The store's `fetchAll(id)` returns a `SessionDocument`. */

export const SESSION_DOCUMENT_VERSION = 2;

export type RunStatus = "running" | "completed" | "failed";

export interface ToolCall {
  id: string;
  name: string;
  /** The arguments exactly as the model sent them (a JSON text), so a bad one can be shown back. */
  arguments: string;
}

export type MemoryEntry =
  | { role: "user"; content: string }
  | { role: "assistant"; content: string; toolCalls?: ToolCall[] }
  | { role: "tool"; toolCallId: string; name: string; content: string }
  /**
   * Why the cursor came to this step: the message of the `advance(...)` that a tool of step `from`
   * returned. It follows the turn's user message in the memory of the step handed the turn.
   */
  | { role: "handoff"; from: string; content: string };

/** A tool call's result, or for a child run the status it ended the turn in. */
export type ExecutionOutcome = "stay" | "advance" | "complete" | "invalid" | "skipped" | RunStatus;

export interface ExecutionEntry {
  seq: number;
  turn: number;
  step: string;
  kind: "tool" | "child";
  name: string;
  outcome: ExecutionOutcome;
  /** For `advance`, the step the cursor moved to. */
  to?: string;
  /** For `invalid`, what was wrong with the arguments. */
  detail?: string;
  /** For a tool call, the keys of its step's state it added or changed; absent when it wrote none. */
  wrote?: string[];
}

export type StepStates = Record<string, Record<string, unknown>>;

/** A nested run: its own state, memory and log, kept under the parent session. */
export interface ChildRun {
  flow: string;
  parentStep: string;
  turn: number;
  runStatus: RunStatus;
  currentStep: string;
  steps: StepStates;
  memory: Record<string, MemoryEntry[]>;
  execution: ExecutionEntry[];
}

/** Everything but what grows with the conversation; rewritten on every turn. */
export interface SessionHead {
  id: string;
  version: number;
  /** Turns applied so far; a save names the count it was based on, so a stale write is refused. */
  turns: number;
  flow: { name: string; currentStep: string };
  runStatus: RunStatus;
  steps: StepStates;
  children: ChildRun[];
  createdAt: string;
  updatedAt: string;
}

export interface SessionDocument extends SessionHead {
  /** Per-step namespaces plus `flow`, the conversation as the user saw it. */
  memory: Record<string, MemoryEntry[]>;
  execution: ExecutionEntry[];
}

/** The session without what grows with the conversation; a head is returned as a copy of itself. */
export function headOf(session: SessionHead | SessionDocument): SessionHead {
  const { memory: _memory, execution: _execution, ...head } = session as SessionDocument;
  return head;
}

/** The memory namespace holding the user-visible conversation across steps. */
export const FLOW_MEMORY = "flow";

export interface MemoryAppend {
  namespace: string;
  entry: MemoryEntry;
}

/**
 * The answer a turn sent under a client's key (an HTTP `Idempotency-Key`), kept apart from the
 * session document and written with the turn, so a client that lost it gets it again.
 */
export interface KeptAnswer {
  /** The session the request named; "" for a request that started a session, scoped by its key alone. */
  scope: string;
  key: string;
  /** What the request asked (its flow and message, as JSON text), to tell the same request from another one under a used key. */
  request: string;
  /** The answer as its caller made it: any JSON value. */
  answer: unknown;
}

/** One turn's write: the new head and what the turn appended. Applied entirely or not at all. */
export interface TurnWrite {
  head: SessionHead;
  /** The `turns` count the turn was computed from; 0 when the turn creates the session. */
  baseTurns: number;
  memory: MemoryAppend[];
  execution: ExecutionEntry[];
  /** For a keyed turn, its answer; a write whose scope and key are kept already is refused as a conflict. */
  answer?: KeptAnswer;
}
