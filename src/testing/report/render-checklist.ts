import { POINT_TITLES } from "./point-titles.ts";
import type { ChecklistPoint, FlowChecklist, PointStatus } from "./run-results.ts";

const MARKS: Record<PointStatus, string> = { proved: "✓", missing: "✗", "not applicable": "–", "not judged": "?" };

/** What the marks of a flow's table mean. */
export const MARKS_LEGEND = "✓ proved, ✗ to add, – not applicable, ? not judged";

/** A flow's own points: a child's not applicable ones (most are judged on its parent) are left out. */
function ownPoints(flow: FlowChecklist): ChecklistPoint[] {
  return flow.points.filter((point) => !(flow.childOf && point.status === "not applicable"));
}

/** Whether a flow has a point to add (✗): its table is then worth showing. */
export const hasMissing = (flow: FlowChecklist): boolean => flow.points.some((point) => point.status === "missing");

/** Why an unjudged flow was not judged, in its points' words. */
const notJudgedWhy = (flow: FlowChecklist): string =>
  flow.points.find((point) => point.status === "not judged")?.detail ?? "not every scenario ran";

/** A judged flow's table: a line per point of its own, with its mark, title and proof or what to add. */
export function checklistRows(flow: FlowChecklist): string[] {
  const width = Math.max(...Object.values(POINT_TITLES).map((title) => title.length));
  return ownPoints(flow).map(
    (point) =>
      `${MARKS[point.status]} ${point.id.padStart(2).padEnd(11)} ${(POINT_TITLES[point.id] ?? point.id).padEnd(width)}  ${point.detail}`,
  );
}

/**
 * A flow's checklist in a few words: how many of its own points are proved, to add, not
 * applicable and not in this run (`13 ✓, 2 not in this run`), or why it was not judged.
 */
export function checklistCounts(flow: FlowChecklist): string {
  if (!flow.judged) return flow.childOf ? "not judged" : `not judged, ${notJudgedWhy(flow)}`;
  const own = ownPoints(flow);
  const count = (status: PointStatus) => own.filter((point) => point.status === status).length;
  const missing = count("missing");
  return [
    `${count("proved")} ✓`,
    ...(missing ? [`${missing} ✗ to add${flow.strict ? " (strict)" : ""}`] : []),
    ...(count("not applicable") ? [`${count("not applicable")} n/a`] : []),
    ...(count("not judged") ? [`${count("not judged")} not in this run`] : []),
  ].join(", ");
}

/** The checklist as a whole: per flow, a header and a line per point with its mark, title and proof. */
export function renderChecklist(checklist: readonly FlowChecklist[]): string[] {
  return checklist.flatMap((flow) => {
    const name = flow.childOf
      ? `${flow.flow} (child of ${flow.childOf})`
      : `${flow.flow} (${flow.scenarios.ran} of ${flow.scenarios.total} scenario files ran)`;
    if (!flow.judged) return [`${name}: not judged, ${notJudgedWhy(flow)}`];
    const missing = flow.points.filter((point) => point.status === "missing").length;
    const verdict = missing ? `${missing} to add${flow.strict ? ", strict" : ""}` : "all proved";
    return [
      `${name}: ${verdict}${flow.childOf ? ` (the other points are judged on ${flow.childOf})` : ""}`,
      ...checklistRows(flow).map((row) => `  ${row}`),
    ];
  });
}

/** One message per missing point of a judged flow: the flow, the point and what to add. */
export function missingPoints(checklist: readonly FlowChecklist[]): string[] {
  return checklist
    .filter((flow) => flow.judged)
    .flatMap((flow) =>
      flow.points
        .filter((point) => point.status === "missing")
        .map((point) => `${flow.flow}, point ${point.id} (${POINT_TITLES[point.id]}): ${point.detail}`),
    );
}

/** One message per missing point of a judged, strict flow: the flow, the point and what to add. */
export function strictFailures(checklist: readonly FlowChecklist[]): string[] {
  return missingPoints(checklist.filter((flow) => flow.strict));
}
