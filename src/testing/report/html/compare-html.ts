import type { Outcome } from "../../checks/turn-report.ts";
import type { ConversationResult, RunResults, TurnResult } from "../run-results.ts";
import { MARKS } from "./checks-html.ts";
import { escapeHtml } from "./escape-html.ts";

interface TurnAt {
  where: string;
  outcome: Outcome;
  score?: number;
}

// A turn is the same turn in two runs when its file, case, repeat and label are: its number may move.
function turnsOf(results: RunResults): Map<string, TurnAt> {
  const turns = new Map<string, TurnAt>();
  const add = (conversation: ConversationResult, turn: TurnResult) => {
    const key = [conversation.file, conversation.caseLabel ?? "", conversation.repeat.index, turn.label].join("\u0000");
    const where = `${conversation.name}${conversation.repeat.of > 1 ? ` @${conversation.repeat.index}` : ""} › ${turn.label}`;
    const outcome = turn.judge?.outcome === "failed" ? "failed" : turn.outcome;
    turns.set(key, { where, outcome, ...(turn.judge?.score !== undefined ? { score: turn.judge.score } : {}) });
  };
  for (const conversation of results.conversations) for (const turn of conversation.turns) add(conversation, turn);
  return turns;
}

const scoreText = (score: number | undefined) => (score === undefined ? "" : ` (${score.toFixed(2)})`);

/** The turns whose outcome or judge score moved since `older`, worsened ones first. */
export function compareHtml(results: RunResults, older: RunResults): string {
  const before = turnsOf(older);
  const moved = [...turnsOf(results)].flatMap(([key, now]) => {
    const then = before.get(key);
    if (!then || (then.outcome === now.outcome && then.score === now.score)) return [];
    const worse =
      (now.outcome === "failed" && then.outcome !== "failed") ||
      (now.outcome === then.outcome && (now.score ?? 0) < (then.score ?? 0));
    return [{ now, then, worse }];
  });
  const rows = moved
    .sort((a, b) => Number(b.worse) - Number(a.worse))
    .map(
      ({ now, then, worse }) =>
        `<tr class="${worse ? "worse" : "better"}"><td>${escapeHtml(now.where)}</td><td><span class="${then.outcome}">${MARKS[then.outcome]} ${then.outcome}${scoreText(then.score)}</span></td>` +
        `<td><span class="${now.outcome}">${MARKS[now.outcome]} ${now.outcome}${scoreText(now.score)}</span></td></tr>`,
    );
  const body = rows.length
    ? `<table class="moved"><tr><th>turn</th><th>before</th><th>now</th></tr>${rows.join("")}</table>`
    : `<p class="none">No turn's outcome or judge score moved.</p>`;
  return `<section class="panel compare-panel"><h2>Since ${escapeHtml(older.startedAt)}${older.commit ? ` (<code>${escapeHtml(older.commit.slice(0, 12))}</code>)` : ""}</h2>${body}</section>`;
}
