import type { Check } from "../checks/check.ts";
import type { StreamEvent } from "../answer/parse-event-stream.ts";
import type { TurnReport } from "../checks/turn-report.ts";
import type { Transcript } from "./transcript.ts";

function answerText(body: unknown): string {
  if (Array.isArray(body)) {
    const done = (body as StreamEvent[]).find((event) => event.event === "done");
    try {
      return answerText(done ? JSON.parse(done.data) : undefined) + `   [${body.length} events]`;
    } catch {
      return done?.data ?? "(no done event)";
    }
  }
  if (body !== null && typeof body === "object") {
    const json = body as { response?: unknown; error?: { code?: unknown; message?: unknown } };
    if (typeof json.response === "string") return json.response;
    if (json.error) return `[${String(json.error.code)}] ${String(json.error.message)}`;
  }
  return typeof body === "string" ? body : JSON.stringify(body);
}

/** A check that did not pass, its message's further lines indented under its first. */
function checkLine(check: Check): string {
  const mark = check.outcome === "failed" ? "✗" : "–";
  return `   ${mark} ${check.contract} ${check.name}: ${(check.message ?? "").replace(/\n/g, "\n       ")}`;
}

function renderTurn(turn: TurnReport): string[] {
  const mark = turn.outcome === "passed" ? "✓" : turn.outcome === "failed" ? "✗" : "–";
  if (turn.outcome === "skipped") return [`── ${turn.number}. ${turn.label} ${mark} skipped: ${turn.skipReason ?? ""}`, `   user       ${turn.input}`];
  const timing = turn.millis ? ` · ${turn.millis.http.toFixed(1)} ms` : "";
  const lines = [`── ${turn.number}. ${turn.label} ${mark}  ${turn.response?.status ?? "no answer"}${timing}`, `   user       ${turn.input}`];
  if (turn.idempotencyKey) lines.push(`   key        ${turn.idempotencyKey}`);
  if (turn.response) lines.push(`   assistant  ${answerText(turn.response.body).replace(/\n/g, "\n              ")}`);
  if (turn.stored) lines.push(`   stored     ${turn.stored.flow.currentStep} · ${turn.stored.runStatus} · ${turn.stored.turns} turn${turn.stored.turns === 1 ? "" : "s"}`);
  const counts = (["passed", "failed", "skipped"] as const).map((outcome) => `${turn.checks.filter((c) => c.outcome === outcome).length} ${outcome}`);
  lines.push(`   checks     ${counts.join(" · ")}`);
  for (const check of turn.checks) if (check.outcome !== "passed") lines.push(checkLine(check));
  return lines;
}

/** A failure transcript as a conversation a person can read, failed checks marked ✗, skipped –. */
export function renderTranscript(transcript: Transcript): string {
  const { scenario } = transcript;
  const lines = [
    `${scenario.flowName} · ${scenario.name} (${scenario.file}) — ${transcript.outcome.toUpperCase()}${transcript.outcome === "failed" ? ` (${transcript.kind})` : ""}`,
  ];
  if (scenario.description) lines.push(scenario.description);
  if (transcript.failure) lines.push("", transcript.failure);
  lines.push("", `target   ${transcript.target.baseUrl}`, `sessions ${transcript.target.store}`);
  const models = Object.entries(transcript.target.models ?? {}).map(([flow, mode]) => `${flow} ${mode}`);
  if (models.length) lines.push(`models   ${models.join(", ")}`);
  const pins = Object.entries(transcript.pins).map(([key, value]) => `${key}=${value}`);
  lines.push(`pins     ${pins.join("  ") || "none"}`, `started  ${transcript.startedAt}`, "");
  for (const turn of transcript.turns) lines.push(...renderTurn(turn));
  const final = transcript.final;
  if (final) {
    const mark = final.outcome === "passed" ? "✓" : final.outcome === "failed" ? "✗" : "–";
    lines.push(`── final state ${mark}${final.skipReason ? ` skipped: ${final.skipReason}` : ""}`);
    for (const check of final.checks) if (check.outcome !== "passed") lines.push(checkLine(check));
  }
  return `${lines.join("\n")}\n`;
}
