import type { FlowChecklist, PointStatus } from "../run-results.ts";
import { escapeHtml } from "./escape-html.ts";

const MARK: Record<PointStatus, { mark: string; chip: string }> = {
  proved: { mark: "✓", chip: "pass" },
  missing: { mark: "✗", chip: "fail" },
  "not applicable": { mark: "–", chip: "miss" },
  "not judged": { mark: "?", chip: "miss" },
};

function flowHtml(entry: FlowChecklist): string {
  const missing = entry.points.filter((point) => point.status === "missing").length;
  const facts = [
    entry.childOf
      ? `child of ${escapeHtml(entry.childOf)}`
      : `${entry.scenarios.ran} of ${entry.scenarios.total} scenario files ran`,
    entry.judged ? (missing ? `${missing} not proved` : "every point proved") : "not judged: not all its scenarios ran",
    ...(entry.strict ? ["strict"] : []),
  ];
  const rows = entry.points.map((point) => {
    const { mark, chip } = MARK[point.status];
    return `<tr><td><span class="chip ${chip}" title="${escapeHtml(point.status)}">${mark} ${escapeHtml(point.id)}</span></td><td>${escapeHtml(point.detail)}</td></tr>`;
  });
  // Open where something is missing, like a failed conversation.
  return `<details class="flow"${missing ? " open" : ""}><summary><h3>${escapeHtml(entry.flow)} <span class="facts">${facts.join(" · ")}</span></h3></summary><table class="tools">${rows.join("")}</table></details>`;
}

/** The new-flow checklist of each flow: every point ✓, ✗, – or ?, with what proves it or what to add. */
export function checklistHtml(checklist: readonly FlowChecklist[] | undefined): string {
  if (!checklist?.length) return "";
  return `<section class="panel"><h2>New-flow checklist</h2>${checklist.map(flowHtml).join("")}</section>`;
}
