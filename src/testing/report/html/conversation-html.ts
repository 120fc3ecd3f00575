import type { ConversationResult } from "../run-results.ts";
import { checksHtml, MARKS } from "./checks-html.ts";
import { escapeHtml } from "./escape-html.ts";
import { foldedText } from "./folded-text.ts";
import { exchangesAttribute, labellingHtml } from "./labelling-html.ts";
import { simulationHtml } from "./simulation-html.ts";
import { sessionIdOf, turnHtml } from "./turn-html.ts";

function summaryHtml(conversation: ConversationResult): string {
  const { repeat, turns } = conversation;
  const sessionId = turns.map(sessionIdOf).find((id) => id !== undefined);
  const facts = [
    ...(conversation.flowName ? [escapeHtml(conversation.flowName)] : []),
    ...(repeat.of > 1 ? [`repeat ${repeat.index} of ${repeat.of}`] : []),
    `${turns.length} turn${turns.length === 1 ? "" : "s"}`,
    ...(conversation.millis !== undefined ? [`${(conversation.millis / 1000).toFixed(2)} s`] : []),
    ...(sessionId ? [`session <code>${escapeHtml(sessionId)}</code>`] : []),
    ...(conversation.kind === "semantic" ? ["judge only"] : []),
    ...(conversation.simulation ? ["simulated user"] : []),
  ];
  return (
    `<summary><span class="mark">${MARKS[conversation.outcome]}</span> <span class="name">${escapeHtml(conversation.name)}</span>` +
    `<span class="facts">${facts.join(" · ")}</span></summary>`
  );
}

function finalHtml(final: ConversationResult["final"]): string {
  if (!final || final.checks.length === 0) return "";
  return `<section class="turn final ${final.outcome}"><h4><span class="mark">${MARKS[final.outcome]}</span> final state</h4>${checksHtml(final.checks)}</section>`;
}

/**
 * One conversation, open when it failed and folded otherwise, its flow, tags and outcome kept on
 * the element for the page's filter (and its answered turns, for the labels of the judge's verdicts); a
 * simulated one says first who its user was and how it ended.
 */
export function conversationHtml(conversation: ConversationResult): string {
  const reason =
    conversation.reason && conversation.outcome !== "passed"
      ? `<div class="reason">${foldedText(conversation.reason, "message")}</div>`
      : "";
  const where = `<p class="where">${escapeHtml(conversation.file)}${conversation.target ? ` · ${escapeHtml(conversation.target.store)}` : ""}</p>`;
  const tags = (conversation.tags ?? []).join(" ");
  const turns = conversation.turns.map((turn, index) => turnHtml(turn, labellingHtml(conversation, index)));
  return (
    `<details class="conversation ${conversation.outcome}"${conversation.outcome === "failed" ? " open" : ""} data-outcome="${conversation.outcome}" ` +
    `data-flow="${escapeHtml(conversation.flowName ?? "")}" data-tags="${escapeHtml(tags)}"${exchangesAttribute(conversation)}>` +
    `${summaryHtml(conversation)}` +
    `<div class="body">${where}${simulationHtml(conversation.simulation)}${tags ? `<p class="tags">${(conversation.tags ?? []).map((tag) => `<span class="chip">${escapeHtml(tag)}</span>`).join("")}</p>` : ""}${reason}` +
    `${turns.join("")}${finalHtml(conversation.final)}</div></details>`
  );
}
