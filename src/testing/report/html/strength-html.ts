import type { PlayDifference } from "../../strength/play-differences.ts";
import { differenceLine } from "../../strength/render-strength.ts";
import type { MutantResult, StrengthResults } from "../../strength/strength-results.ts";
import type { FlowStrength } from "../../strength/strength-score.ts";
import { escapeHtml } from "./escape-html.ts";

function scoreRow(flow: FlowStrength): string {
  const score = flow.score === null ? "–" : flow.score.toFixed(2);
  const counts = [flow.killed, flow.timedOut, flow.survived, flow.equivalent, flow.notReached];
  return `<tr><td>${escapeHtml(flow.flow)}</td><td>${score}</td>${counts.map((count) => `<td>${count}</td>`).join("")}</tr>`;
}

function differencesHtml(differences: readonly PlayDifference[]): string {
  if (differences.length === 0) return "";
  return `<ul>${differences.map((difference) => `<li>${escapeHtml(differenceLine(difference))}</li>`).join("")}</ul>`;
}

/** A list of mutants under `title`, each with its own text; nothing when there is none. */
function mutantsHtml(
  title: string,
  mutants: readonly MutantResult[],
  detail: (mutant: MutantResult) => string,
): string {
  if (mutants.length === 0) return "";
  const items = mutants.map((mutant) => `<li><code>${escapeHtml(mutant.id)}</code>${detail(mutant)}</li>`);
  return `<h3>${title}</h3><ul class="mutants">${items.join("")}</ul>`;
}

function killHtml(mutant: MutantResult): string {
  if (mutant.verdict !== "killed") return "";
  const at = mutant.turn ? `turn ${mutant.turn.number} '${mutant.turn.label}'` : "final state";
  const live = mutant.live ? `<p>for a live run: ${escapeHtml(mutant.live)}</p>` : "";
  return `: ${escapeHtml(`${mutant.scenario} ${at} ${mutant.check}`)}${differencesHtml(mutant.differences ?? [])}${live}`;
}

/**
 * The last `flowcheck strength` run: each flow's score and counts, the survivors with the
 * expectation each difference asks for, the kills only the scripted model or a cassette made (a
 * live run would not), apart from each other, the mutants marked equivalent and the scenarios left out.
 */
export function strengthHtml(strength: StrengthResults | undefined): string {
  if (!strength) return "";
  const kills = (by: string) => strength.mutants.filter((mutant) => mutant.verdict === "killed" && mutant.by === by);
  const lists = [
    mutantsHtml(
      "Survivors",
      strength.mutants.filter((mutant) => mutant.verdict === "survived"),
      (mutant) => (mutant.verdict === "survived" ? differencesHtml(mutant.differences) : ""),
    ),
    mutantsHtml("Killed only by the scripted model", kills("script"), killHtml),
    mutantsHtml("Killed only by a cassette", kills("cassette"), killHtml),
    mutantsHtml(
      "Marked equivalent",
      strength.mutants.filter((mutant) => mutant.verdict === "equivalent" && mutant.reason !== undefined),
      (mutant) => (mutant.verdict === "equivalent" ? `: ${escapeHtml(mutant.reason ?? "")}` : ""),
    ),
  ];
  const left = strength.failing.map(
    ({ scenario, failure }) => `<li><code>${escapeHtml(scenario)}</code>: ${escapeHtml(failure)}</li>`,
  );
  const unmeasured = strength.notMeasurable.map(
    ({ file, why }) => `<li><code>${escapeHtml(file)}</code>: ${escapeHtml(why)}</li>`,
  );
  return (
    `<section class="panel strength"><h2>Scenario strength <span class="facts">killed ÷ (killed + survived), ${escapeHtml(strength.startedAt)}, ${(strength.millis / 1000).toFixed(1)} s</span></h2>` +
    `<table><tr><th>flow</th><th>score</th><th>killed</th><th>timed out</th><th>survived</th><th>equivalent</th><th>not reached</th></tr>` +
    `${strength.scores.map(scoreRow).join("")}</table>${lists.join("")}` +
    `${left.length ? `<h3>Left out, failing unmutated</h3><ul>${left.join("")}</ul>` : ""}` +
    `${unmeasured.length ? `<h3>Not measurable</h3><ul>${unmeasured.join("")}</ul>` : ""}</section>`
  );
}
