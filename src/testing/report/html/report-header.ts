import type { OutcomeCounts, RunResults } from "../run-results.ts";
import { judgeCalibrationText } from "../judge-calibration-text.ts";
import { escapeHtml } from "./escape-html.ts";
import { unstableVerdicts } from "../unstable-verdicts.ts";

function wallTime(results: RunResults): string {
  const millis = Date.parse(results.endedAt) - Date.parse(results.startedAt);
  if (!Number.isFinite(millis)) return "unknown";
  return millis < 60_000
    ? `${(millis / 1000).toFixed(1)} s`
    : `${Math.floor(millis / 60_000)} min ${Math.round((millis % 60_000) / 1000)} s`;
}

function tally(label: string, counts: OutcomeCounts): string {
  return (
    `<div class="tally"><span class="label">${label}</span><span class="count">${counts.total}</span>` +
    `<span class="pass">${counts.passed} passed</span><span class="fail">${counts.failed} failed</span><span class="skip">${counts.skipped} skipped</span></div>`
  );
}

function pairs(record: Readonly<Record<string, string>>): string {
  const entries = Object.entries(record);
  if (entries.length === 0) return `<span class="none">none</span>`;
  return entries.map(([key, value]) => `<code>${escapeHtml(key)}=${escapeHtml(value)}</code>`).join(" ");
}

function judgeLine(results: RunResults): string {
  const { judge } = results.totals;
  const model = results.pins["JUDGE_MODEL"];
  const rate =
    judge.passRate === null
      ? "none graded"
      : `${judge.passed} of ${judge.graded} passed (${Math.round(judge.passRate * 100)}%)`;
  // Counted from the turns, not the totals: results written before samples have no `unstable` count.
  const unstable = unstableVerdicts(results.conversations).length;
  return (
    `${escapeHtml(rate)}${judge.skipped ? `, ${judge.skipped} skipped` : ""}` +
    `${unstable ? `, <span class="chip unstable">${unstable} unstable</span>` : ""}` +
    `${model ? ` · <code>${escapeHtml(model)}</code>` : ""}`
  );
}

/** How far the run's judge agrees with people, from the committed calibration, under the judge's line. */
function calibrationRow(results: RunResults): [string, string][] {
  const text = judgeCalibrationText(results);
  return text === undefined ? [] : [["calibration", escapeHtml(text)]];
}

/** The run at a glance: when, what it tested with, and how it went. */
export function reportHeader(results: RunResults): string {
  const { totals } = results;
  const failed = totals.conversations.failed + results.specsNotLoaded.length > 0;
  const rows: [string, string][] = [
    ["when", `${escapeHtml(results.startedAt)} · ${wallTime(results)}`],
    ...(results.commit
      ? [["commit", `<code>${escapeHtml(results.commit.slice(0, 12))}</code>`] as [string, string]]
      : []),
    ...(results.shards ? [["shards", escapeHtml(results.shards.join(", "))] as [string, string]] : []),
    ["models", pairs(results.models)],
    ["judge", judgeLine(results)],
    ...calibrationRow(results),
    ["pins", pairs(results.pins)],
    [
      "tokens",
      `${totals.tokens.total} (model ${totals.tokens.model.input} in, ${totals.tokens.model.output} out; judge ${totals.tokens.judge.input} in, ${totals.tokens.judge.output} out` +
        `${totals.tokens.user ? `; simulated users ${totals.tokens.user.input} in, ${totals.tokens.user.output} out` : ""})`,
    ],
  ];
  return (
    `<header class="${failed ? "red" : "green"}"><h1>flowcheck run <span class="badge">${failed ? "failed" : "passed"}</span></h1>` +
    `<div class="tallies">${tally("conversations", totals.conversations)}${tally("turns", totals.turns)}</div>` +
    `<dl>${rows.map(([name, value]) => `<dt>${name}</dt><dd>${value}</dd>`).join("")}</dl></header>`
  );
}
