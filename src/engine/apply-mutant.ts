import { isDeepStrictEqual } from "node:util";
import { changedValue, type ChildMutant, type Mutant, type ToolMutant } from "./mutant.ts";
import type { ToolResult } from "./tool-result.ts";

/** The mutant, when it changes what `tool` of `flow`/`step` does. */
export function toolMutantAt(mutant: Mutant, flow: string, step: string, tool: string): ToolMutant | undefined {
  return "tool" in mutant && mutant.tool === tool && mutant.step === step && mutant.flow === flow ? mutant : undefined;
}

/** The mutant, when it changes the child run `child` that `flow`/`step` starts. */
export function childMutantAt(mutant: Mutant, flow: string, step: string, child: string): ChildMutant | undefined {
  return "child" in mutant && mutant.child === child && mutant.step === step && mutant.flow === flow
    ? mutant
    : undefined;
}

/** Whether the mutant drops the hand-off message an advance from `flow`/`step` leaves. */
export function dropsHandoff(mutant: Mutant, flow: string, step: string): boolean {
  return mutant.change.kind === "drop-handoff" && "step" in mutant && mutant.step === step && mutant.flow === flow;
}

/** Whether the mutant alters `flow`'s rendering as `mediaType`. */
export function altersRendering(mutant: Mutant, flow: string, mediaType: string): boolean {
  return mutant.change.kind === "alter-render" && mutant.change.mediaType === mediaType && mutant.flow === flow;
}

/** Whether the mutant alters `flow`'s event-stream answers. */
export function altersStream(mutant: Mutant, flow: string): boolean {
  return mutant.change.kind === "alter-stream" && mutant.flow === flow;
}

/**
 * What the tool's call leaves once the mutant has changed it: `state` (the step's own, written in
 * place) against `before`, its copy from before the call, and the result the step goes on with.
 */
export function applyToolMutant(
  mutant: ToolMutant,
  result: ToolResult,
  before: Record<string, unknown>,
  state: Record<string, unknown>,
): ToolResult {
  const change = mutant.change;
  switch (change.kind) {
    case "drop-write":
      if (change.key in before) state[change.key] = before[change.key];
      else delete state[change.key];
      return result;
    case "change-value":
      // A value the call did not write is not the tool's slip: the mutant leaves it.
      if (change.key in state && !isDeepStrictEqual(state[change.key], before[change.key]))
        state[change.key] = changedValue(state[change.key]);
      return result;
    case "advance-to-stay":
      return result.kind === "advance" ? { kind: "stay", message: result.message } : result;
    case "stay-to-advance":
      return result.kind === "stay" ? { kind: "advance", to: change.to, message: result.message } : result;
    case "advance-elsewhere":
      return result.kind === "advance" ? { ...result, to: change.to } : result;
    case "withhold-complete":
      return result.kind === "complete" ? { kind: "stay", message: result.message } : result;
  }
}
