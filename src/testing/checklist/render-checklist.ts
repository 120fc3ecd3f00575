import { POINT_TITLES, type FlowChecklist, type PointStatus } from "./checklist.ts";

const MARKS: Record<PointStatus, string> = { proved: "✓", missing: "✗", "not applicable": "–", "not judged": "?" };

/** The checklist as the terminal shows it after the suites: per flow, a line per point with its mark, title and proof. */
export function renderChecklist(checklist: readonly FlowChecklist[]): string[] {
  const width = Math.max(...Object.values(POINT_TITLES).map((title) => title.length));
  return checklist.flatMap((flow) => {
    const missing = flow.points.filter((point) => point.status === "missing").length;
    const name = flow.childOf ? `${flow.flow} (child of ${flow.childOf})` : `${flow.flow} (${flow.scenarios.ran} of ${flow.scenarios.total} scenario files ran)`;
    if (!flow.judged) return [`${name}: not judged, ${flow.points.find((point) => point.status === "not judged")?.detail ?? "not every scenario ran"}`];
    const verdict = missing ? `${missing} to add${flow.strict ? ", strict" : ""}` : "all proved";
    // A child's points that are its parent's are one word in the header, not a line each.
    const own = flow.points.filter((point) => !(flow.childOf && point.status === "not applicable"));
    return [
      `${name}: ${verdict}${flow.childOf ? ` (the other points are judged on ${flow.childOf})` : ""}`,
      ...own.map((point) => `  ${MARKS[point.status]} ${point.id.padStart(2).padEnd(11)} ${(POINT_TITLES[point.id] ?? point.id).padEnd(width)}  ${point.detail}`),
    ];
  });
}

/** One message per missing point of a judged, strict flow: the flow, the point and what to add. */
export function strictFailures(checklist: readonly FlowChecklist[]): string[] {
  return checklist
    .filter((flow) => flow.judged && flow.strict)
    .flatMap((flow) => flow.points.filter((point) => point.status === "missing").map((point) => `${flow.flow}, point ${point.id} (${POINT_TITLES[point.id]}): ${point.detail}`));
}
