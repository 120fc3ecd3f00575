import type { FlowDefinition } from "./flow.ts";

/** `flow` and every flow it declares as a child, at any depth, parents before their children. */
export function flowFamily(flow: FlowDefinition): FlowDefinition[] {
  return [flow, ...flow.children.flatMap(flowFamily)];
}
