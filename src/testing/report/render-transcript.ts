import type { Check } from "../checks/check.ts";
import type { StreamEvent } from "../answer/parse-event-stream.ts";
import type { Outcome, TurnReport } from "../checks/turn-report.ts";
import type { ConversationResult } from "./run-results.ts";
import { storedSummaryOf, storedTurns, type StoredSummary } from "./stored-summary.ts";
import type { Transcript } from "./transcript.ts";
import { inputText } from "../scenario/turn-input.ts";
import { shownCall } from "../checks/tool-calls-check.ts";
import { requestUrl } from "./request-url.ts";

// A request body longer than this is cut, but on a turn that failed or was answered with an error:
// there, what was sent is the first thing to read, whole.
const SHORT_BODY = 600;
const INDENT = "\n              ";

/**
 * The answer as a person reads it: flowcheck's `response` (its stream's done event's, with the
 * count of events) or its error's code and message; else the answer's text as the target's
 * pointers read it (`said`), else the body as it came.
 */
function answerText(body: unknown, said: string | undefined): string {
  if (Array.isArray(body)) {
    const done = (body as StreamEvent[]).find((event) => event.event === "done");
    try {
      return answerText(done ? JSON.parse(done.data) : undefined, said) + `   [${body.length} events]`;
    } catch {
      return done?.data ?? "(no done event)";
    }
  }
  if (body !== null && typeof body === "object") {
    const json = body as { response?: unknown; error?: { code?: unknown; message?: unknown } };
    if (typeof json.response === "string") return json.response;
    if (json.error !== null && typeof json.error === "object")
      return `[${String(json.error.code)}] ${String(json.error.message)}`;
  }
  if (said !== undefined) return said;
  return typeof body === "string" ? body : JSON.stringify(body);
}

/** A check that did not pass, its message's further lines indented under its first. */
function checkLine(check: Check): string {
  const mark = check.outcome === "failed" ? "✗" : "–";
  return `   ${mark} ${check.contract} ${check.name}: ${(check.message ?? "").replace(/\n/g, "\n       ")}`;
}

/** A turn as a transcript or a run's results hold it: `said` is the answer's text. */
type RenderedTurn = Omit<TurnReport, "stored" | "answer"> & { stored?: StoredSummary; said?: string };

/** What a rendered conversation is made of, whether read from a failure transcript or a run's results. */
interface RenderedConversation {
  title: string;
  description?: string;
  failure?: string;
  target?: { baseUrl: string; store: string };
  models?: Readonly<Record<string, string>>;
  pins: Readonly<Record<string, string>>;
  startedAt?: string;
  /** A simulated conversation's user, as far as it is known, and how the conversation ended. */
  simulation?: Partial<NonNullable<ConversationResult["simulation"]>>;
  turns: readonly RenderedTurn[];
  final?: { outcome: Outcome; skipReason?: string; checks: readonly Check[] };
}

/**
 * The request as it was sent: its method and whole URL, its body, and on a turn that failed or was
 * answered with an error, its headers (credentials redacted) and its whole body.
 */
function sentLines(turn: RenderedTurn): string[] {
  const request = turn.request;
  if (!request) return [];
  const whole = turn.outcome === "failed" || (turn.response?.status ?? 0) >= 400;
  const body = typeof request.body === "string" ? request.body : JSON.stringify(request.body);
  const lines = [`   sent       ${request.method} ${requestUrl(request)}`];
  if (body !== undefined && body !== "")
    lines.push(`              ${whole || body.length <= SHORT_BODY ? body : `${body.slice(0, SHORT_BODY)}…`}`);
  const headers = Object.entries(request.headers).map(([name, value]) => `${name}: ${value}`);
  if (whole && headers.length) lines.push(`   headers    ${headers.join(" · ")}`);
  return lines;
}

function renderTurn(turn: RenderedTurn): string[] {
  const mark = turn.outcome === "passed" ? "✓" : turn.outcome === "failed" ? "✗" : "–";
  if (turn.outcome === "skipped")
    return [
      `── ${turn.number}. ${turn.label} ${mark} skipped: ${turn.skipReason ?? ""}`,
      `   user       ${inputText(turn.input)}`,
    ];
  const timing = turn.millis ? ` · ${turn.millis.http.toFixed(1)} ms` : "";
  const simulated = turn.simulated ? ` · simulated user, message ${turn.simulated.turn}` : "";
  const lines = [
    `── ${turn.number}. ${turn.label} ${mark}  ${turn.response?.status ?? "no answer"}${timing}${simulated}`,
    `   user       ${inputText(turn.input)}`,
  ];
  if (turn.simulated?.reason) lines.push(`   why        ${turn.simulated.reason}`);
  lines.push(...sentLines(turn));
  if (turn.idempotencyKey) lines.push(`   key        ${turn.idempotencyKey}`);
  if (turn.response) lines.push(`   assistant  ${answerText(turn.response.body, turn.said).replace(/\n/g, INDENT)}`);
  for (const call of turn.toolCalls ?? []) lines.push(`   tool       ${shownCall(call, 400)}`);
  if (turn.stored)
    lines.push(`   stored     ${turn.stored.step} · ${turn.stored.runStatus} · ${storedTurns(turn.stored.turns)}`);
  const counts = (["passed", "failed", "skipped"] as const).map(
    (outcome) => `${turn.checks.filter((c) => c.outcome === outcome).length} ${outcome}`,
  );
  lines.push(`   checks     ${counts.join(" · ")}`);
  for (const check of turn.checks) if (check.outcome !== "passed") lines.push(checkLine(check));
  return lines;
}

/** Who the simulated user was, who played it, and why the conversation ended: what of it is known. */
function simulationLines(simulation: RenderedConversation["simulation"]): string[] {
  if (!simulation) return [];
  const { persona, goal, style, player, userTurns, end } = simulation;
  const played = [
    ...(style ? [style] : []),
    ...(player ? [`played by ${player}`] : []),
    ...(userTurns !== undefined ? [`${userTurns} message${userTurns === 1 ? "" : "s"}`] : []),
  ];
  return [
    ...(persona !== undefined ? [`persona  ${persona}`] : []),
    ...(goal !== undefined ? [`goal     ${goal}`] : []),
    ...(played.length ? [`user     ${played.join(" · ")}`] : []),
    ...(end ? [`ended    ${end.reason}: ${end.detail}`] : []),
  ];
}

function renderConversation(conversation: RenderedConversation): string {
  const lines = [conversation.title];
  if (conversation.description) lines.push(conversation.description);
  if (conversation.failure) lines.push("", conversation.failure);
  lines.push("");
  if (conversation.target)
    lines.push(`target   ${conversation.target.baseUrl}`, `sessions ${conversation.target.store}`);
  const models = Object.entries(conversation.models ?? {}).map(([flow, mode]) => `${flow} ${mode}`);
  if (models.length) lines.push(`models   ${models.join(", ")}`);
  const pins = Object.entries(conversation.pins).map(([key, value]) => `${key}=${value}`);
  lines.push(`pins     ${pins.join("  ") || "none"}`);
  if (conversation.startedAt) lines.push(`started  ${conversation.startedAt}`);
  lines.push(...simulationLines(conversation.simulation));
  lines.push("");
  for (const turn of conversation.turns) lines.push(...renderTurn(turn));
  const final = conversation.final;
  if (final) {
    const mark = final.outcome === "passed" ? "✓" : final.outcome === "failed" ? "✗" : "–";
    lines.push(`── final state ${mark}${final.skipReason ? ` skipped: ${final.skipReason}` : ""}`);
    for (const check of final.checks) if (check.outcome !== "passed") lines.push(checkLine(check));
  }
  return `${lines.join("\n")}\n`;
}

/**
 * A failure transcript as a conversation a person can read, failed checks marked ✗, skipped –; a
 * simulated one with its user and end reason at its top, and its user's turns marked.
 */
export function renderTranscript(transcript: Transcript): string {
  const { scenario } = transcript;
  return renderConversation({
    title: `${scenario.flowName} · ${scenario.name} (${scenario.file}) — ${transcript.outcome.toUpperCase()}${transcript.outcome === "failed" ? ` (${transcript.kind})` : ""}`,
    ...(scenario.description ? { description: scenario.description } : {}),
    ...(transcript.failure ? { failure: transcript.failure } : {}),
    target: transcript.target,
    ...(transcript.target.models ? { models: transcript.target.models } : {}),
    pins: transcript.pins,
    startedAt: transcript.startedAt,
    ...(scenario.user || transcript.final?.simulation
      ? { simulation: { ...scenario.user, ...transcript.final?.simulation } }
      : {}),
    turns: transcript.turns.map(({ stored, answer, ...turn }) => ({
      ...turn,
      ...(stored ? { stored: storedSummaryOf(stored) } : {}),
      ...(answer !== undefined ? { said: answer } : {}),
    })),
    ...(transcript.final ? { final: transcript.final } : {}),
  });
}

/** One conversation of a run's results (`test/.tmp/run-results.json`), rendered as its transcript is. */
export function renderResultConversation(conversation: ConversationResult): string {
  const repeat = conversation.repeat.of > 1 ? `, run ${conversation.repeat.index} of ${conversation.repeat.of}` : "";
  const kind = conversation.outcome === "failed" && conversation.kind ? ` (${conversation.kind})` : "";
  const title = `${conversation.flowName ?? "?"} · ${conversation.name}${repeat} (${conversation.file}) — ${conversation.outcome.toUpperCase()}${kind}`;
  return renderConversation({
    title,
    ...(conversation.reason ? { failure: conversation.reason } : {}),
    ...(conversation.target ? { target: conversation.target } : {}),
    models: conversation.models,
    pins: conversation.pins,
    ...(conversation.startedAt ? { startedAt: conversation.startedAt } : {}),
    ...(conversation.simulation ? { simulation: conversation.simulation } : {}),
    turns: conversation.turns.map(({ answer, changed: _changed, judge: _judge, ...turn }) => ({
      ...turn,
      ...(answer ? { said: answer.text } : {}),
    })),
    ...(conversation.final ? { final: conversation.final } : {}),
  });
}
