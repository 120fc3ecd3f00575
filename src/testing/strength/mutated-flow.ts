import type { FlowDefinition, Renderer } from "../../engine/flow.ts";
import type { ChildOutcome, Step, StepContext } from "../../engine/step.ts";
import type { ToolResult } from "../../engine/tool-result.ts";
import { alteredRendering } from "./altered-rendering.ts";
import { changedToolResult } from "./changed-tool-result.ts";
import { flowWithMethods, type MethodChange, type ToolMethod } from "./flow-with-methods.ts";
import type { ChildMutant, Mutant } from "./mutant.ts";

/** `context.runChild`, as the engine makes it, without its overloads. */
type RunChild = (
  child: FlowDefinition,
  request: string | { message: string; input?: unknown },
) => Promise<ChildOutcome>;

const SKIPPED: ChildOutcome = { runStatus: "completed", output: undefined, steps: {}, reply: "" };

/** `method` with its result passed through `change`, given the step's state as the call found it and as it is. */
function afterCall(
  method: ToolMethod,
  change: (result: unknown, before: Record<string, unknown>, state: Record<string, unknown>) => unknown,
): ToolMethod {
  return function (this: Step, args, context) {
    const before = structuredClone(context.state);
    const settle = (result: unknown) => change(result, before, context.state);
    const raw = method.call(this, args, context);
    // A tool that answers synchronously stays synchronous, as the engine calls it.
    return typeof (raw as PromiseLike<unknown> | null)?.then === "function"
      ? Promise.resolve(raw).then(settle)
      : settle(raw);
  };
}

/** `method` given a context whose `runChild` is `wrap` of the engine's. */
function withRunChild(method: ToolMethod, wrap: (run: RunChild) => RunChild): ToolMethod {
  return function (this: Step, args, context) {
    const runChild = wrap(context.runChild as RunChild) as StepContext["runChild"];
    return method.call(this, args, { ...context, runChild });
  };
}

/** An advance whose hand-off is dropped: its entry is kept, empty, so the memory stays a valid conversation. */
function withoutHandoff(result: unknown): unknown {
  return (result as ToolResult | null)?.kind === "advance" ? { ...(result as ToolResult), handoff: "" } : result;
}

/** The child run `mutant` names, skipped or its output dropped; any other child run as the engine runs it. */
function childChange(mutant: ChildMutant, flow: FlowDefinition): (run: RunChild) => RunChild {
  // An undeclared child is the engine's to refuse, as it would be unmutated.
  const named = (child: FlowDefinition) => child.name === mutant.child && flow.children.includes(child);
  if (mutant.change.kind === "skip-child")
    return (run) => (child, request) => (named(child) ? Promise.resolve(SKIPPED) : run(child, request));
  return (run) => async (child, request) => {
    const outcome = await run(child, request);
    return named(child) && outcome.runStatus === "completed" ? { ...outcome, output: undefined } : outcome;
  };
}

/** What `mutant` does to the tool methods of its own flow, `flow`. */
function ownChange(mutant: Mutant, flow: FlowDefinition): MethodChange {
  if ("tool" in mutant) {
    const { change } = mutant;
    return (method, step, tool) =>
      step === mutant.step && tool.name === mutant.tool
        ? afterCall(method, (result, before, state) => changedToolResult(change, result, before, state, flow))
        : undefined;
  }
  if ("child" in mutant) {
    const wrap = childChange(mutant, flow);
    return (method, step) => (step === mutant.step ? withRunChild(method, wrap) : undefined);
  }
  if ("step" in mutant) return (method, step) => (step === mutant.step ? afterCall(method, withoutHandoff) : undefined);
  return () => undefined;
}

/** `flow`'s renderers with the one `mutant` alters wrapped, its body altered after the flow's renderer made it. */
function mutatedRenderers(flow: FlowDefinition, mutant: Mutant): FlowDefinition["renderers"] {
  if (mutant.change.kind !== "alter-render") return flow.renderers;
  const { mediaType } = mutant.change;
  if (!Object.hasOwn(flow.renderers, mediaType)) return flow.renderers;
  const render = flow.renderers[mediaType]!;
  const altered: Renderer = (session) => alteredRendering(mediaType, render(session));
  return Object.freeze({ ...flow.renderers, [mediaType]: altered });
}

/**
 * `flow` as `mutant` changes it, a new definition made before the app is built; `flow`, its step
 * classes and its children are left as they are, so the unmutated flows play on in the same
 * process. The mutant's own flow gets its change (a tool's method wrapped to change its write or
 * result, an advance's hand-off dropped, a child run skipped or its output dropped, a renderer
 * wrapped); a flow that runs it as a child, at any depth, runs the changed child in its place.
 * A flow the mutant does not reach is returned itself. The event stream is no part of the
 * definition: `alteredStreamHandler` alters it.
 */
export function mutatedFlow(flow: FlowDefinition, mutant: Mutant): FlowDefinition {
  if (flow.name === mutant.flow)
    return flowWithMethods(flow, ownChange(mutant, flow), { renderers: mutatedRenderers(flow, mutant) });
  const children = flow.children.map((child) => mutatedFlow(child, mutant));
  const swapped = new Map(flow.children.map((child, index) => [child, children[index]!]));
  if (flow.children.every((child) => swapped.get(child) === child)) return flow;
  // The steps name their children by the definitions they import: the changed one runs in its place.
  const swap =
    (run: RunChild): RunChild =>
    (child, request) =>
      run(swapped.get(child) ?? child, request);
  return flowWithMethods(flow, (method) => withRunChild(method, swap), { children: Object.freeze(children) });
}
