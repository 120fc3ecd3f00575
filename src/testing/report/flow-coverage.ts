import type { FlowDefinition } from "../../engine/flow.ts";
import type { ExecutionEntry } from "../../engine/session-document.ts";
import type { SessionView } from "../checks/session-view.ts";
import type { CalledTool } from "../checks/called-tool.ts";

/**
 * What a run's scenarios reached of each flow, child flows included: for every step whether a
 * session was on it, and for every tool the outcomes it returned (an empty list: never called).
 * Built from the stored sessions, so it shows what was persisted, not what was asked for.
 */
export interface FlowCoverage {
  [flow: string]: {
    /** The flow whose scenarios ran this one, for a child flow. */
    childOf?: string;
    scenarios: number;
    steps: Record<string, boolean>;
    /**
     * `Step.tool` → the outcomes seen, sorted. For a flow a target of another kind serves, whose
     * outline lists no tools: each tool its answers reported called, by name → how its calls ended
     * (`returned`, `failed`, `denied`, `pending`).
     */
    tools: Record<string, string[]>;
    /** `From→To` of every advance seen, sorted. */
    transitions?: string[];
    /** For a flow a target of another kind serves, not our engine: which, e.g. `graph intake of target graphs (…)`. */
    servedBy?: string;
    /** The kind of that target (`langgraph`, `http`, `ai-sdk`, `mastra`): what its flows can show differs by kind. */
    targetKind?: string;
  };
}

function blank(flow: FlowDefinition, childOf: string | undefined, into: FlowCoverage): FlowCoverage[string] {
  const entry = (into[flow.name] ??= { ...(childOf ? { childOf } : {}), scenarios: 0, steps: {}, tools: {} });
  for (const step of flow.stepNames) {
    entry.steps[step] ??= false;
    for (const tool of flow.tools(step)) entry.tools[`${step}.${tool.name}`] ??= [];
  }
  for (const child of flow.children) blank(child, childOf ?? flow.name, into);
  return entry;
}

function record(entry: FlowCoverage[string], execution: readonly ExecutionEntry[], currentStep: string): void {
  entry.steps[currentStep] = true;
  for (const { step, kind, name, outcome, to } of execution) {
    entry.steps[step] = true;
    if (to !== undefined) {
      entry.steps[to] = true;
      entry.transitions = [...new Set([...(entry.transitions ?? []), `${step}→${to}`])].sort();
    }
    if (kind !== "tool") continue;
    const outcomes = (entry.tools[`${step}.${name}`] ??= []);
    if (!outcomes.includes(outcome)) {
      outcomes.push(outcome);
      outcomes.sort();
    }
  }
}

/** Adds one scenario's stored session, on `flow`, to `coverage`. */
export function addToCoverage(coverage: FlowCoverage, flow: FlowDefinition, document: SessionView): void {
  const root = blank(flow, undefined, coverage);
  root.scenarios++;
  record(root, document.execution, document.flow.currentStep);
  for (const child of document.children) {
    const entry = coverage[child.flow];
    if (entry) record(entry, child.execution, child.currentStep);
  }
}

/**
 * Adds one scenario of a flow that a target of another kind serves: the steps its outline lists
 * (none when it lists none), those the stored session was on after its turns, and the tools its
 * answers reported called, by name, with how their calls ended. Its outline lists no tools, so
 * the tools counted are those seen; such a target logs no moves between steps.
 */
export function addReachedToCoverage(
  coverage: FlowCoverage,
  outline: { name: string; stepNames: readonly string[] | undefined; servedBy: string; kind?: string },
  reached: Iterable<string>,
  called: Iterable<Pick<CalledTool, "name" | "status">> = [],
): void {
  const entry = (coverage[outline.name] ??= {
    scenarios: 0,
    steps: {},
    tools: {},
    servedBy: outline.servedBy,
    ...(outline.kind === undefined ? {} : { targetKind: outline.kind }),
  });
  for (const step of outline.stepNames ?? []) entry.steps[step] ??= false;
  entry.scenarios++;
  for (const step of reached) if (step !== "") entry.steps[step] = true;
  for (const { name, status } of called) {
    const ended = (entry.tools[name] ??= []);
    if (!ended.includes(status)) {
      ended.push(status);
      ended.sort();
    }
  }
}

/** Both coverages in one: a step reached in either is reached, a tool's outcomes are both lists'. */
export function mergeCoverage(into: FlowCoverage, from: FlowCoverage): FlowCoverage {
  for (const [flow, entry] of Object.entries(from)) {
    const target = (into[flow] ??= {
      ...(entry.childOf ? { childOf: entry.childOf } : {}),
      scenarios: 0,
      steps: {},
      tools: {},
    });
    target.scenarios += entry.scenarios;
    for (const [step, reached] of Object.entries(entry.steps))
      target.steps[step] = (target.steps[step] ?? false) || reached;
    for (const [tool, outcomes] of Object.entries(entry.tools))
      target.tools[tool] = [...new Set([...(target.tools[tool] ?? []), ...outcomes])].sort();
    if (entry.transitions)
      target.transitions = [...new Set([...(target.transitions ?? []), ...entry.transitions])].sort();
    if (entry.servedBy !== undefined) target.servedBy ??= entry.servedBy;
    if (entry.targetKind !== undefined) target.targetKind ??= entry.targetKind;
  }
  return into;
}

/** The coverage's flows by name, each flow followed by its children. */
export function coverageInOrder(coverage: FlowCoverage): [string, FlowCoverage[string]][] {
  const order = ([flow, entry]: [string, FlowCoverage[string]]) => (entry.childOf ? `${entry.childOf} ${flow}` : flow);
  return Object.entries(coverage).sort((a, b) => order(a).localeCompare(order(b)));
}

/**
 * How much of one flow its scenarios reached, `2/3 steps · 1/3 tools`, and what they never did:
 * `steps never reached: AddressStep`, `tools never called: WeatherStep.get_weather, …` (none when all were).
 */
export function reachOf(entry: FlowCoverage[string]): { reached: string; never: string[] } {
  const steps = Object.entries(entry.steps);
  const tools = Object.entries(entry.tools);
  const unreached = steps.filter(([, reached]) => !reached).map(([step]) => step);
  const uncalled = tools.filter(([, outcomes]) => outcomes.length === 0).map(([tool]) => tool);
  return {
    reached: `${steps.length - unreached.length}/${steps.length} steps · ${tools.length - uncalled.length}/${tools.length} tools`,
    never: [
      ...(unreached.length ? [`steps never reached: ${unreached.join(", ")}`] : []),
      ...(uncalled.length ? [`tools never called: ${uncalled.join(", ")}`] : []),
    ],
  };
}
