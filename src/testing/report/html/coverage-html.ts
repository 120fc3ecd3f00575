import type { FlowCoverage } from "../flow-coverage.ts";
import { escapeHtml } from "./escape-html.ts";

function flowHtml(flow: string, entry: FlowCoverage[string]): string {
  const steps = Object.entries(entry.steps);
  const reached = steps.filter(([, yes]) => yes).length;
  const stepChips = steps
    .map(
      ([step, yes]) =>
        `<span class="chip ${yes ? "pass" : "miss"}" title="${yes ? "reached" : "never reached"}">${escapeHtml(step)}</span>`,
    )
    .join('<span class="arrow">›</span>');
  const tools = Object.entries(entry.tools).map(
    ([tool, outcomes]) =>
      `<tr><td><code>${escapeHtml(tool)}</code></td><td>${outcomes.length ? outcomes.map((outcome) => `<span class="chip pass">${escapeHtml(outcome)}</span>`).join(" ") : `<span class="chip miss">never called</span>`}</td></tr>`,
  );
  const name = entry.childOf
    ? `${escapeHtml(flow)} <span class="facts">child of ${escapeHtml(entry.childOf)}</span>`
    : `${escapeHtml(flow)} <span class="facts">${entry.scenarios} scenario${entry.scenarios === 1 ? "" : "s"}</span>`;
  return (
    `<div class="flow"><h3>${name} <span class="facts">steps ${reached} of ${steps.length}</span></h3><div class="steps">${stepChips}</div>` +
    `${tools.length ? `<table class="tools">${tools.join("")}</table>` : ""}</div>`
  );
}

/** Per flow, each step and whether the run reached it, and each tool with the outcomes it returned. */
export function coverageHtml(coverage: FlowCoverage | undefined): string {
  const flows = Object.entries(coverage ?? {});
  if (flows.length === 0) return "";
  return `<section class="panel"><h2>Flow coverage</h2>${flows.map(([flow, entry]) => flowHtml(flow, entry)).join("")}</section>`;
}
