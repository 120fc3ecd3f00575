import type { CalledTool } from "../../checks/called-tool.ts";
import { toolCallArgs, toolCallOutput } from "../../checks/tool-call-values.ts";

/** A tool call as a Mastra answer names it, before its outcome is known. */
export interface MastraCall {
  id: string;
  name: string;
  args: unknown;
}

/** How a call ended: what it returned, or the error it failed with. */
export type MastraOutcome = { id: string; output: unknown } | { id: string; error: string };

/**
 * A turn's calls in the order they were made, each paired by its id with how it ended: returned
 * (its output), failed (`{ error }`), or, with no outcome in the answer, pending. Arguments and
 * outputs that came as JSON text are parsed.
 */
export function pairedToolCalls(calls: readonly MastraCall[], outcomes: readonly MastraOutcome[]): CalledTool[] {
  const ended = new Map(outcomes.map((outcome) => [outcome.id, outcome]));
  return calls.map((call) => {
    const shown = { name: call.name, args: toolCallArgs(call.args), id: call.id };
    const outcome = ended.get(call.id);
    if (outcome === undefined) return { ...shown, status: "pending" };
    if ("error" in outcome) return { ...shown, output: { error: outcome.error }, status: "failed" };
    return { ...shown, output: toolCallOutput(outcome.output), status: "returned" };
  });
}

/**
 * The text of a failed call's error as Mastra serializes it: a tool that threw is wrapped in a
 * `TOOL_EXECUTION_FAILED` error whose own message is not serialized, the thrown one in its cause.
 */
export function errorText(error: unknown): string {
  if (typeof error === "string") return error;
  const shaped = error as { message?: unknown; cause?: { message?: unknown } } | null;
  if (typeof shaped?.cause?.message === "string") return shaped.cause.message;
  if (typeof shaped?.message === "string") return shaped.message;
  return JSON.stringify(error) ?? String(error);
}
