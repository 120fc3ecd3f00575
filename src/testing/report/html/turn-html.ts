import type { TurnResult } from "../run-results.ts";
import { storedTurns } from "../stored-summary.ts";
import { answerHtml } from "./answer-html.ts";
import { changeHtml } from "./change-html.ts";
import { checksHtml, MARKS } from "./checks-html.ts";
import { escapeHtml } from "./escape-html.ts";
import { foldedText } from "./folded-text.ts";
import { inputText } from "../../scenario/turn-input.ts";
import { sentHtml } from "./sent-html.ts";
import { toolCallsHtml } from "./tool-calls-html.ts";

/** The session id a turn was sent with, read from its request's headers. */
export function sessionIdOf(turn: TurnResult): string | undefined {
  const headers = turn.request?.headers ?? {};
  return Object.entries(headers).find(([name]) => name.toLowerCase() === "chat_session_id")?.[1];
}

function metaHtml(turn: TurnResult): string {
  const parts = [
    turn.response ? `HTTP ${turn.response.status}` : turn.outcome === "skipped" ? "not sent" : "no answer",
    ...(turn.millis ? [`${turn.millis.http.toFixed(1)} ms`] : []),
    ...(turn.stored
      ? [
          `stored: ${escapeHtml(turn.stored.step)} · ${escapeHtml(turn.stored.runStatus)} · ${storedTurns(turn.stored.turns)}`,
        ]
      : []),
  ];
  return `<div class="meta">${parts.join(" · ")}</div>`;
}

/**
 * One turn as a chat exchange: the request as sent, the answer and the tools it called, its checks
 * and what it changed in the stored session; a simulated user's says why the user wrote it, when it said.
 * `labelling` goes under its checks: the buttons that label the judge's verdict, when it had one.
 */
export function turnHtml(turn: TurnResult, labelling = ""): string {
  const why = turn.outcome === "skipped" && turn.skipReason ? `<p class="why">${escapeHtml(turn.skipReason)}</p>` : "";
  const where = turn.location ? `<p class="where">${escapeHtml(turn.location)}</p>` : "";
  const simulated = turn.simulated ? ` <span class="facts">simulated user, message ${turn.simulated.turn}</span>` : "";
  const said = turn.simulated?.reason ? `<p class="why">the user: ${escapeHtml(turn.simulated.reason)}</p>` : "";
  return (
    `<section class="turn ${turn.outcome}"><h4><span class="mark">${MARKS[turn.outcome]}</span> ${turn.number}. ${escapeHtml(turn.label)}${simulated}</h4>${where}${why}${said}` +
    `<div class="bubble user">${foldedText(inputText(turn.input))}</div>${sentHtml(turn)}${answerHtml(turn)}${toolCallsHtml(turn)}${metaHtml(turn)}` +
    `${checksHtml(turn.checks)}${labelling}${changeHtml(turn.changed)}</section>`
  );
}
