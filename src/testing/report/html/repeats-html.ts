import type { ConversationResult } from "../run-results.ts";
import { escapeHtml } from "./escape-html.ts";

interface TurnRepeats {
  label: string;
  played: number;
  passed: number;
  scores: number[];
}

function byTurn(repeats: readonly ConversationResult[]): TurnRepeats[] {
  const turns = new Map<string, TurnRepeats>();
  for (const turn of repeats.flatMap((conversation) => conversation.turns)) {
    const entry = turns.get(turn.label) ?? { label: turn.label, played: 0, passed: 0, scores: [] };
    turns.set(turn.label, entry);
    if (turn.outcome === "skipped") continue;
    entry.played++;
    if (turn.outcome === "passed" && turn.judge?.outcome !== "failed") entry.passed++;
    if (turn.judge?.score !== undefined) entry.scores.push(turn.judge.score);
  }
  return [...turns.values()];
}

const percent = (share: number) => `${Math.round(Math.max(0, Math.min(1, share)) * 100)}%`;

function rowHtml(turn: TurnRepeats): string {
  const rate = turn.played ? turn.passed / turn.played : 0;
  const [low, high] = turn.scores.length
    ? [Math.min(...turn.scores), Math.max(...turn.scores)]
    : [undefined, undefined];
  const spread =
    low === undefined || high === undefined
      ? `<span class="none">no score</span>`
      : `<span class="bar spread"><span class="range" style="left:${percent(low)};width:${percent(high - low)}"></span></span> ${low.toFixed(2)}–${high.toFixed(2)}`;
  return (
    `<tr><td>${escapeHtml(turn.label)}</td><td><span class="bar"><span class="fill ${rate === 1 ? "pass" : "fail"}" style="width:${percent(rate)}"></span></span> ` +
    `${turn.passed}/${turn.played}</td><td>${spread}</td></tr>`
  );
}

/** For every repeated conversation, each turn's pass rate over its repeats and its judge scores' spread. */
export function repeatsHtml(conversations: readonly ConversationResult[]): string {
  const groups = new Map<string, ConversationResult[]>();
  for (const conversation of conversations.filter((each) => each.repeat.of > 1)) {
    const key = `${conversation.file}#${conversation.name}`;
    groups.set(key, [...(groups.get(key) ?? []), conversation]);
  }
  if (groups.size === 0) return "";
  const tables = [...groups.values()].map(
    (repeats) =>
      `<h3>${escapeHtml(repeats[0]!.name)} <span class="facts">${repeats.length} repeats</span></h3>` +
      `<table class="repeats"><tr><th>turn</th><th>passed</th><th>judge score</th></tr>${byTurn(repeats).map(rowHtml).join("")}</table>`,
  );
  return `<section class="panel"><h2>Repeats</h2>${tables.join("")}</section>`;
}
