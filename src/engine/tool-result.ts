import type { StepClass } from "./step.ts";

export type ToolResult =
  | { kind: "stay"; message: string }
  | { kind: "advance"; to: string; message: string }
  | { kind: "complete"; message: string };

/** The cursor stays; `message` goes back to the model, which answers the user. */
export function stay(message: string): ToolResult {
  return { kind: "stay", message };
}

/** The cursor moves to `next` (a step class of the same flow, or its name). */
export function advance(next: StepClass | string, message = "Done. Continue with the next step."): ToolResult {
  return { kind: "advance", to: typeof next === "string" ? next : next.name, message };
}

/** The run ends with `runStatus: "completed"`; the model gives its closing answer without tools. */
export function complete(message = "The flow is complete. Close the conversation."): ToolResult {
  return { kind: "complete", message };
}
