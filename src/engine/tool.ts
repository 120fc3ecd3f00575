import { FlowcheckError } from "../errors.ts";
import type { Step, StepClass, StepContext } from "./step.ts";
import type { ToolResult } from "./tool-result.ts";

export interface ToolSpec {
  /** The name the model calls, e.g. `save_name`. */
  name: string;
  description: string;
  /** JSON Schema of the arguments object; the handler never sees arguments that fail it. */
  parameters: Record<string, unknown>;
}

export interface DeclaredTool extends ToolSpec {
  method: string;
}

type StateOf<T> = T extends { readonly "~state"?: infer S } ? (S extends object ? S : never) : never;

type ToolHandler<This, S extends object> = (
  this: This,
  // The argument type is the handler's own declaration; the schema is what enforces it.
  args: any,
  context: StepContext<S>,
) => ToolResult | Promise<ToolResult>;

const declaredTools = new WeakMap<Function, DeclaredTool>();

/**
 * Declares a step method as a tool the model may call.
 *
 * @example
 * \@tool({ name: "save_name", description: "Save the user's real name.",
 *   parameters: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } })
 * saveName(args: { name: string }, ctx: StepContext<NameState>) { ... }
 */
export function tool(spec: ToolSpec) {
  return function <This extends Step<object>, Fn extends ToolHandler<This, StateOf<This>>>(
    method: Fn,
    context: ClassMethodDecoratorContext<This, Fn>,
  ): void {
    if (context.static || context.private) {
      throw new FlowcheckError(
        "flow_invalid",
        `@tool("${spec.name}") is on a static or #private method; put it on a public instance method of the step.`,
      );
    }
    if (declaredTools.has(method)) {
      throw new FlowcheckError(
        "flow_invalid",
        `@tool("${spec.name}") is the second @tool on method ${String(context.name)}; a method is one tool, so split it in two methods.`,
      );
    }
    declaredTools.set(method, { ...spec, method: String(context.name) });
  };
}

/**
 * The tools declared on a step class and its base classes, in declaration order, base first. A
 * subclass method that overrides a base tool method replaces it, and is a tool only if it too is
 * declared with `@tool`.
 */
export function toolsOf(stepClass: StepClass): DeclaredTool[] {
  const chain: object[] = [];
  for (let proto = stepClass.prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    chain.unshift(proto);
  }
  const byMethod = new Map<string, DeclaredTool>();
  for (const proto of chain) {
    for (const key of Object.getOwnPropertyNames(proto)) {
      const value = (proto as Record<string, unknown>)[key];
      const declared = typeof value === "function" ? declaredTools.get(value) : undefined;
      if (declared) byMethod.set(key, declared);
      else byMethod.delete(key);
    }
  }
  return [...byMethod.values()];
}
