import type { ExecutionOutcome } from "../../engine/session-document.ts";

/**
 * A tool a turn called, as `expectToolCalls` matches it, whichever kind of target reported it: read
 * from our engine's stored log, or from the answer of a target of another kind (its stream's tool
 * parts, its thread's tool messages).
 */
export interface CalledTool {
  name: string;
  /** The arguments, parsed when they came as JSON text; the text itself when it is not JSON. */
  args: unknown;
  /**
   * What the tool returned, parsed when it came as JSON text; `{ error: "<its text>" }` for a failed
   * call. Absent for a call whose answer shows no output of it.
   */
  output?: unknown;
  /**
   * How the call ended: it returned, it failed (`output.error` says why), it was denied, or
   * `pending`: the answer names the call but shows no output of it — a stream that ended before
   * the result, or an OpenAI chat completion's `tool_calls`, which never carry one. A pending call
   * matches no expected `output`.
   */
  status: "returned" | "failed" | "denied" | "pending";
  /** Our engine's outcome of the call (`stay`, `advance`, `complete`…); only our engine's targets have one. */
  result?: ExecutionOutcome;
  /** The call's id, where the target gives one. */
  id?: string;
}
