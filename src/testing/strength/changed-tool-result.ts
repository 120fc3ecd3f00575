import { isDeepStrictEqual } from "node:util";
import type { FlowDefinition } from "../../engine/flow.ts";
import type { ToolResult } from "../../engine/tool-result.ts";
import { changedValue, type ToolMutant } from "./mutant.ts";

/** Whether the engine refuses `raw` as a tool's result: such a result is left for it to refuse, as it would the tool's. */
function refused(raw: unknown, flow: FlowDefinition): boolean {
  const result = raw as Partial<ToolResult> | null;
  if (result?.kind === "advance") return flow.step(result.to!) === undefined;
  return result?.kind !== "stay" && result?.kind !== "complete";
}

/**
 * What a tool's call of `flow` leaves once `change` has changed it: `state` (the step's own,
 * written in place) against `before`, its copy from before the call, and the result the step goes
 * on with. A `to` that names no step of the flow is refused by the engine, as a tool's would be.
 */
export function changedToolResult(
  change: ToolMutant["change"],
  raw: unknown,
  before: Record<string, unknown>,
  state: Record<string, unknown>,
  flow: FlowDefinition,
): unknown {
  if (refused(raw, flow)) return raw;
  const result = raw as ToolResult;
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
