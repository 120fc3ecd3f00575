import { checklistCounts, missingPoints } from "./render-checklist.ts";
import { failedAt } from "./failed-at.ts";
import { reachOf } from "./flow-coverage.ts";
import { judgeCalibrationText } from "./judge-calibration-text.ts";
import { passKText, successText } from "./pass-k-shown.ts";
import { renderChanges } from "./render-changes.ts";
import { flowRows } from "./render-run-summary.ts";
import { runChanges } from "./run-changes.ts";
import type { ConversationResult, RunResults } from "./run-results.ts";
import { unstableLine, unstableVerdicts } from "./unstable-verdicts.ts";

interface TurnRate {
  scenario: string;
  turn: string;
  runs: number;
  passed: number;
  scores: number[];
}

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\s+/g, " ");
}

function percent(part: number, whole: number): string {
  return whole ? `${Math.round((part / whole) * 100)}%` : "–";
}

function spread(scores: readonly number[]): string {
  if (scores.length === 0) return "–";
  const sorted = [...scores].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return `${sorted[0]!.toFixed(2)} / ${median.toFixed(2)} / ${sorted.at(-1)!.toFixed(2)}`;
}

/** Each turn of each scenario over all its repeats (and shards): how many of its runs played it and passed, and its judge scores. */
export function turnRates(conversations: readonly ConversationResult[]): TurnRate[] {
  const rates = new Map<string, TurnRate>();
  for (const conversation of conversations) {
    const scenario = `${conversation.flowName ?? "?"}: ${conversation.name}`;
    for (const turn of conversation.turns) {
      const key = `${scenario}\u0000${turn.number}`;
      const rate = rates.get(key) ?? {
        scenario,
        turn: `${turn.number}. ${turn.label}`,
        runs: 0,
        passed: 0,
        scores: [],
      };
      rates.set(key, rate);
      if (turn.outcome === "skipped") continue;
      rate.runs++;
      if (turn.outcome === "passed" && turn.judge?.outcome !== "failed") rate.passed++;
      if (turn.judge?.score !== undefined) rate.scores.push(turn.judge.score);
    }
  }
  return [...rates.values()];
}

function tokensByScenario(conversations: readonly ConversationResult[]): Map<string, number> {
  const tokens = new Map<string, number>();
  for (const { flowName, name, tokens: used } of conversations) {
    const key = `${flowName ?? "?"}: ${name}`;
    tokens.set(
      key,
      (tokens.get(key) ?? 0) +
        [used.model, used.judge, used.user].reduce((sum, count) => sum + (count ? count.input + count.output : 0), 0),
    );
  }
  return tokens;
}

/** How far the run's judge agrees with people, from the committed calibration, as a paragraph of its own. */
function judgeCalibrationLines(results: RunResults): string[] {
  const text = judgeCalibrationText(results);
  return text === undefined ? [] : ["", `Judge calibration: ${text}`];
}

/** Each flow's reach and checklist counts, as the closing summary's flow lines give them, then the checklist's points to add. */
function flowLines(results: RunResults): string[] {
  const rows = flowRows(results.coverage ?? {}, results.checklist ?? []);
  if (rows.length === 0) return [];
  const missing = missingPoints(results.checklist ?? []);
  return [
    "",
    "| flow | reached | never reached or called | new-flow checklist |",
    "| --- | --- | --- | --- |",
    ...rows.map((row) => {
      const reach = row.coverage ? reachOf(row.coverage) : { reached: "not played", never: [] };
      return `| ${row.child ? "↳ " : ""}${cell(row.flow)} | ${reach.reached} | ${cell(reach.never.join("; ")) || "–"} | ${row.checklist ? cell(checklistCounts(row.checklist)) : "–"} |`;
    }),
    ...(missing.length
      ? ["", "New-flow checklist points to add:", "", ...missing.map((point) => `- ${cell(point)}`)]
      : []),
  ];
}

/** The verdicts whose samples disagreed (`JUDGE_SAMPLES` above 1), each with its `file:line` and samples. */
function unstableSection(results: RunResults): string[] {
  const unstable = unstableVerdicts(results.conversations);
  if (unstable.length === 0) return [];
  return [
    "",
    "### Unstable verdicts",
    "",
    `The judge's samples disagreed on ${unstable.length} verdict${unstable.length === 1 ? "" : "s"} ` +
      "(`JUDGE_UNSTABLE=report` gives each its majority's outcome, `fail` fails it):",
    "",
    ...unstable.map((verdict) => `- ${cell(unstableLine(verdict))}`),
  ];
}

/**
 * A run's results as Markdown for a CI job's summary: the totals, the judge's calibration, what changed since `older` when
 * given, then per turn its pass rate over every run of it (a judge's failure counts as not passed)
 * and the spread of its judge scores, the tokens per scenario, the simulated scenarios' successes
 * and pass^k, each flow's coverage and checklist counts with the points to add, the unstable
 * verdicts, and what failed, on which line.
 */
export function renderSummary(results: RunResults, older?: RunResults): string {
  const { conversations, turns, judge, tokens } = results.totals;
  const lines = [
    `## flowcheck: ${conversations.failed ? `${conversations.failed} of ${conversations.total} conversations failed` : `${conversations.passed} of ${conversations.total} conversations passed`}`,
    "",
    `Turns ${turns.passed} passed, ${turns.failed} failed, ${turns.skipped} skipped · judge ${judge.passRate === null ? "none graded" : `${percent(judge.passed, judge.graded)} of ${judge.graded} passed`} · tokens ${tokens.total} (model ${tokens.model.input} in, ${tokens.model.output} out; judge ${tokens.judge.input} in, ${tokens.judge.output} out${tokens.user ? `; simulated users ${tokens.user.input} in, ${tokens.user.output} out` : ""})`,
    `${results.shards ? `Shards ${results.shards.join(", ")} · ` : ""}${results.commit ? `commit ${results.commit.slice(0, 12)} · ` : ""}${results.startedAt} to ${results.endedAt}`,
    ...judgeCalibrationLines(results),
    "",
    ...(older ? renderChanges(runChanges(results, older)) : []),
    "| scenario | turn | passed | judge scores (min / median / max) |",
    "| --- | --- | --- | --- |",
    ...turnRates(results.conversations).map(
      (rate) =>
        `| ${cell(rate.scenario)} | ${cell(rate.turn)} | ${rate.runs ? `${rate.passed} of ${rate.runs} (${percent(rate.passed, rate.runs)})` : "not played"} | ${spread(rate.scores)} |`,
    ),
    "",
    "| scenario | tokens |",
    "| --- | --- |",
    ...[...tokensByScenario(results.conversations)].map(([scenario, count]) => `| ${cell(scenario)} | ${count} |`),
  ];
  if (results.simulated)
    lines.push(
      "",
      "| simulated scenario | succeeded | pass^k |",
      "| --- | --- | --- |",
      ...results.simulated.scenarios.map(
        (scenario) => `| ${cell(scenario.name)} | ${successText(scenario)} | ${passKText(scenario.passK) || "–"} |`,
      ),
      `| run | | ${passKText(results.simulated.passK) || "–"} |`,
    );
  lines.push(...flowLines(results), ...unstableSection(results));
  const failed = results.conversations.filter((conversation) => conversation.outcome === "failed");
  if (failed.length || results.specsNotLoaded.length) {
    lines.push("", "### Failed", "");
    for (const conversation of failed) {
      const at = failedAt(conversation);
      lines.push(
        `- \`${conversation.id}\`${at ? ` (${at})` : ""}: ${cell((conversation.reason ?? "failed").slice(0, 500))}`,
      );
    }
    for (const spec of results.specsNotLoaded)
      lines.push(`- \`${spec.file}\` did not load: ${cell(spec.message.slice(0, 500))}`);
  }
  return `${lines.join("\n")}\n`;
}
