import {
  CHANGE_GROUPS,
  groupTitle,
  othersText,
  playsFacts,
  type RunChanges,
  type ScenarioChange,
  type TurnAt,
} from "../run-changes.ts";
import { MARKS } from "./checks-html.ts";
import { escapeHtml } from "./escape-html.ts";

const scoreText = (score: number | undefined) => (score === undefined ? "" : ` (${score.toFixed(2)})`);
const outcomeHtml = ({ outcome, score }: TurnAt) =>
  `<span class="${outcome}">${MARKS[outcome]} ${outcome}${scoreText(score)}</span>`;

function changeHtml(change: ScenarioChange): string {
  const facts = playsFacts(change);
  const failures = change.failures.map(
    ({ at, reason }) =>
      `<li>${at ? `<code>${escapeHtml(at)}</code> ` : ""}<span class="reason">${escapeHtml(reason)}</span></li>`,
  );
  return (
    `<li><span class="name">${escapeHtml(change.scenario)}</span>${facts ? ` <span class="facts">${escapeHtml(facts)}</span>` : ""}` +
    `${failures.length ? `<ul class="failures">${failures.join("")}</ul>` : ""}</li>`
  );
}

/**
 * What changed since the older run, for the top of the page: each group that has a scenario, in
 * `CHANGE_GROUPS` order, then the turns whose outcome or judge score moved, folded, worsened ones first.
 */
export function changesHtml(changes: RunChanges): string {
  const { startedAt, commit } = changes.since;
  const groups = CHANGE_GROUPS.flatMap((group) => {
    const members = changes.changes.filter((change) => change.group === group);
    return members.length
      ? [
          `<div class="change-group" data-group="${group}"><h3>${groupTitle(group)} <span class="facts">${members.length}</span></h3>` +
            `<ul>${members.map(changeHtml).join("")}</ul></div>`,
        ]
      : [];
  });
  const others = othersText(changes);
  const rows = changes.turnMoves.map(
    ({ now, then, worse }) =>
      `<tr class="${worse ? "worse" : "better"}"><td>${escapeHtml(now.where)}</td><td>${outcomeHtml(then)}</td><td>${outcomeHtml(now)}</td></tr>`,
  );
  const moved = rows.length
    ? `<details class="moved-turns"><summary>${rows.length} turn${rows.length === 1 ? "" : "s"} whose outcome or judge score moved</summary>` +
      `<table class="moved"><tr><th>turn</th><th>before</th><th>now</th></tr>${rows.join("")}</table></details>`
    : "";
  return (
    `<section class="panel changes-panel"><h2>Changed since ${escapeHtml(startedAt)}${commit ? ` (<code>${escapeHtml(commit)}</code>)` : ""}</h2>` +
    `${groups.join("")}${others ? `<p class="others">${escapeHtml(others)}</p>` : ""}${moved}</section>`
  );
}
