import type { ConversationResult } from "../run-results.ts";
import { escapeHtml } from "./escape-html.ts";

/** At the top of a simulated conversation: who the user was and wanted, who played it, and why the conversation ended. */
export function simulationHtml(simulation: ConversationResult["simulation"]): string {
  if (!simulation) return "";
  const rows: [string, string][] = [
    ["persona", simulation.persona],
    ["goal", simulation.goal],
    ["style", simulation.style],
    ["played by", simulation.player],
    ["user turns", String(simulation.userTurns)],
    ["ended", `${simulation.end.reason}: ${simulation.end.detail}`],
  ];
  return `<dl class="simulation">${rows.map(([name, value]) => `<dt>${name}</dt><dd>${escapeHtml(value)}</dd>`).join("")}</dl>`;
}
