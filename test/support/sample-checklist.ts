import type { FlowDefinition } from "../../src/engine/flow.ts";
import { POINT_TITLES } from "../../src/testing/report/point-titles.ts";
import type { FlowCoverage } from "../../src/testing/report/flow-coverage.ts";
import type { ChecklistPoint, FlowChecklist, PointStatus } from "../../src/testing/report/run-results.ts";

/** The points a flow suite alone cannot prove: the project's migrations and typecheck, which `npm test` runs. */
const PROJECT_POINTS = new Set(["10", "12"]);
/** A child flow's own points; the others are judged on its parent. */
const CHILD_POINTS = new Set(["4", "steps", "tools", "transitions"]);

function point(id: string, status: PointStatus, parent?: string): ChecklistPoint {
  const detail: Record<PointStatus, string> = {
    proved: `proved: ${POINT_TITLES[id]}`,
    missing: `add the turn that proves: ${POINT_TITLES[id]}`,
    "not applicable": parent ? `judged on ${parent}` : "the flow has none",
    "not judged": "not in this run: npm test runs it",
  };
  return { id, status, detail: detail[status] };
}

/**
 * The new-flow checklist of `flow` and its children as a run of all its scenario files measures
 * it when every point it can prove is proved: the project's points not judged (not in this run),
 * a child's points but its own not applicable. `statuses` set points otherwise, by flow and point.
 */
export function sampleChecklist(
  flow: FlowDefinition,
  statuses: Record<string, Record<string, PointStatus>> = {},
  fields: Partial<FlowChecklist> = {},
): FlowChecklist[] {
  const ids = Object.keys(POINT_TITLES);
  const head = { scenarios: { total: 1, ran: 1 }, judged: true, strict: false, ...fields };
  const root: FlowChecklist = {
    flow: flow.name,
    ...head,
    points: ids.map((id) => point(id, statuses[flow.name]?.[id] ?? (PROJECT_POINTS.has(id) ? "not judged" : "proved"))),
  };
  const children = flow.children.map(
    (child): FlowChecklist => ({
      flow: child.name,
      childOf: flow.name,
      ...head,
      points: ids.map((id) =>
        point(id, statuses[child.name]?.[id] ?? (CHILD_POINTS.has(id) ? "proved" : "not applicable"), flow.name),
      ),
    }),
  );
  return [root, ...children];
}

/** The coverage of `flow` and its children after `scenarios` scenarios that reached every step and saw every tool advance and refuse. */
export function sampleCoverage(flow: FlowDefinition, scenarios = 1, childOf?: string): FlowCoverage {
  const steps = Object.fromEntries(flow.stepNames.map((step) => [step, true]));
  const tools = Object.fromEntries(
    flow.stepNames.flatMap((step) => flow.tools(step).map((tool) => [`${step}.${tool.name}`, ["advance", "stay"]])),
  );
  const entry = { ...(childOf ? { childOf } : {}), scenarios: childOf ? 0 : scenarios, steps, tools };
  return Object.assign(
    { [flow.name]: entry },
    ...flow.children.map((child) => sampleCoverage(child, 0, childOf ?? flow.name)),
  );
}

/** The checklist of `flow` and its children when only `ran` of its `total` scenario files ran: not judged, as runChecklist words it. */
export function sampleUnjudged(flow: FlowDefinition, total: number, ran: number): FlowChecklist[] {
  const why = `${total - ran} of its ${total} scenario files did not run here: run them all (npm run test:flows)`;
  return sampleChecklist(flow, {}, { judged: false, scenarios: { total, ran } }).map((entry) => ({
    ...entry,
    points: entry.points.map((each) =>
      each.status === "not applicable" ? each : { id: each.id, status: "not judged" as const, detail: why },
    ),
  }));
}
