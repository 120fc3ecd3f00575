import type { ModelFault, ScenarioTurn } from "./scenario.ts";

/**
 * The model fault a turn asks for: its `modelFault`, or its `failModelCall` N as the `error` fault
 * on call N (the loader refuses a turn with both).
 */
export function modelFaultOf(turn: ScenarioTurn): ModelFault | undefined {
  if (turn.modelFault) return turn.modelFault;
  return turn.failModelCall === undefined ? undefined : { call: turn.failModelCall, kind: "error" };
}

/** The key of the turn that asked for its model fault, for messages: `modelFault` or `failModelCall`. */
export function modelFaultKey(turn: ScenarioTurn): "modelFault" | "failModelCall" {
  return turn.modelFault ? "modelFault" : "failModelCall";
}
