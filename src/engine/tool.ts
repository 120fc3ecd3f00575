import { FlowcheckError } from "../errors.ts";
import type { FlowShape } from "./flow-types.ts";
import type { FromSchema } from "./from-schema.ts";
import type { Step, StepClass, StepContext } from "./step.ts";
import type { ToolResult } from "./tool-result.ts";

export interface ToolSpec<Parameters extends object = Record<string, unknown>> {
  /** The name the model calls, e.g. `save_name`. */
  name: string;
  description: string;
  /**
   * JSON Schema of the arguments object; the handler never sees arguments that fail it, and its
   * `args` type is checked against the type the schema describes (`FromSchema`).
   */
  parameters: Parameters;
}

export interface DeclaredTool extends ToolSpec {
  method: string;
}

/** The context and results a tool method of step `T` gets and gives, from its `Step<State, Flow>`. */
type ContextOf<T> = T extends {
  readonly "~state"?: infer S extends object;
  readonly "~flow"?: infer F extends FlowShape;
}
  ? StepContext<S, F>
  : never;
type ResultOf<T> = T extends { readonly "~flow"?: infer F extends FlowShape } ? ToolResult<F> : never;

type ToolHandler<This, Args> = (
  this: This,
  args: Args,
  context: ContextOf<This>,
) => ResultOf<This> | Promise<ResultOf<This>>;

const declaredTools = new WeakMap<Function, DeclaredTool>();

/**
 * Declares a step method as a tool the model may call. The compiler checks the method against the
 * step: its `args` must take what `parameters` describes, its `context` is the step's, and what it
 * returns must be a result of the step's flow (a step name of the flow for `advance`, the flow's
 * output for `complete`). A mismatch is reported on the `@tool` line.
 *
 * @example
 * \@tool({ name: "save_name", description: "Save the user's real name.",
 *   parameters: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } })
 * saveName(args: { name: string }, context: StepContext<NameState, BasicFlowTypes>) { ... }
 */
export function tool<const Parameters extends object>(spec: ToolSpec<Parameters>) {
  // Any step: a constraint naming state and flow types would refuse a step whose state type has
  // an index signature, as `object` is not assignable to it.
  return function <This extends Step<any, any>, Fn extends ToolHandler<This, FromSchema<Parameters>>>(
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
    declaredTools.set(method, {
      ...spec,
      parameters: spec.parameters as Record<string, unknown>,
      method: String(context.name),
    });
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
