import type { TurnResult } from "../run-results.ts";
import { requestUrl } from "../request-url.ts";
import { escapeHtml } from "./escape-html.ts";

/**
 * The request as it was sent (method, whole URL, headers with credentials redacted, body), folded
 * under one line; open on a turn that failed or was answered with an error, where what was sent is
 * the first question.
 */
export function sentHtml(turn: TurnResult): string {
  const request = turn.request;
  if (!request) return "";
  const open = turn.outcome === "failed" || (turn.response?.status ?? 0) >= 400 ? " open" : "";
  const headers = Object.entries(request.headers).map(([name, value]) => `${name}: ${value}`);
  const body = typeof request.body === "string" ? request.body : JSON.stringify(request.body, null, 2);
  const text = [...headers, ...(body ? ["", body] : [])].join("\n");
  return (
    `<details class="sent"${open}><summary>sent <code>${escapeHtml(request.method)} ${escapeHtml(requestUrl(request))}</code></summary>` +
    `<pre>${escapeHtml(text)}</pre></details>`
  );
}
