import type { CompiledTool, FlowDefinition } from "../../engine/flow.ts";
import type { Step, StepClass, StepContext } from "../../engine/step.ts";

/** A tool's method as the engine calls it on an instance of its step. */
export type ToolMethod = (this: Step, args: unknown, context: StepContext) => unknown;

/** The method a tool of `step` gets in place of its own; undefined keeps its own. */
export type MethodChange = (method: ToolMethod, step: string, tool: CompiledTool) => ToolMethod | undefined;

/**
 * `stepClass`, or a subclass of it under the same name whose changed tool methods override its
 * own: the class itself is never touched, so the flows that use it keep running as they were.
 */
function stepWithMethods(stepClass: StepClass, tools: readonly CompiledTool[], change: MethodChange): StepClass {
  const own = stepClass.prototype as unknown as Record<string, ToolMethod>;
  const changed = tools.flatMap((tool) => {
    const method = change(own[tool.method]!, stepClass.name, tool);
    return method ? [[tool.method, method] as const] : [];
  });
  if (changed.length === 0) return stepClass;
  // Typed as its instances' base alone: the step's own class implements what `Step` leaves abstract.
  const base: new () => object = stepClass;
  const subclass = class extends base {} as StepClass;
  // The step's name is its class's: its state, `stateOf` and `advance` read it.
  Object.defineProperty(subclass, "name", { value: stepClass.name });
  for (const [name, method] of changed)
    Object.defineProperty(subclass.prototype, name, { value: method, writable: true, configurable: true });
  return subclass;
}

/**
 * A new definition of `flow`: its steps with the tool methods `change` gives, and `parts` in place
 * of its own. Its tools' names, schemas and method names stay as `defineFlow` compiled them.
 */
export function flowWithMethods(
  flow: FlowDefinition,
  change: MethodChange,
  parts: Partial<Pick<FlowDefinition, "children" | "renderers">> = {},
): FlowDefinition {
  const steps = flow.steps.map((stepClass) => stepWithMethods(stepClass, flow.tools(stepClass.name), change));
  const byName = new Map(steps.map((stepClass) => [stepClass.name, stepClass]));
  return Object.freeze({ ...flow, ...parts, steps: Object.freeze(steps), step: (name: string) => byName.get(name) });
}
