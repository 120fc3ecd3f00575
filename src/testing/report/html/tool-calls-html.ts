import type { CalledTool } from "../../checks/called-tool.ts";
import type { TurnResult } from "../run-results.ts";
import { escapeHtml } from "./escape-html.ts";

const ENDED: Record<CalledTool["status"], string> = {
  returned: "returned",
  failed: "failed",
  denied: "denied",
  pending: "not completed: no output in the answer",
};

function callHtml(call: CalledTool): string {
  const status = call.status === "returned" ? "pass" : call.status === "pending" ? "miss" : "fail";
  const outcome = call.result === undefined ? "" : ` <span class="chip">${escapeHtml(call.result)}</span>`;
  const output = call.output === undefined ? "" : `<pre>→ ${escapeHtml(JSON.stringify(call.output, null, 2))}</pre>`;
  return (
    `<li><code>${escapeHtml(call.name)}(${escapeHtml(JSON.stringify(call.args) ?? "")})</code> ` +
    `<span class="chip ${status}">${ENDED[call.status]}</span>${outcome}${output}</li>`
  );
}

/** The tools the turn called, in order: arguments, how each ended (a call never completed shown so, not dropped), what it returned. */
export function toolCallsHtml(turn: TurnResult): string {
  const calls = turn.toolCalls ?? [];
  if (calls.length === 0) return "";
  return `<div class="tool-calls"><b>tool calls</b><ul>${calls.map(callHtml).join("")}</ul></div>`;
}
