import type { Check } from "../../checks/check.ts";
import { escapeHtml, shown } from "./escape-html.ts";
import { foldedText } from "./folded-text.ts";
import { samplesHtml } from "./samples-html.ts";

export const MARKS = { passed: "✓", failed: "✗", skipped: "–" } as const;

/**
 * A judge's verdict: the expectation it graded (a person labelling the verdict reads it), its score
 * against what it needed, its samples, its reasons.
 */
function verdictHtml(verdict: NonNullable<Check["verdict"]>, expected: unknown): string {
  const list = (label: string, items: readonly string[]) =>
    items.length
      ? `<div class="verdict-list"><b>${label}</b><ul>${items.map((item) => `<li>${escapeHtml(item)}</li>`).join("")}` +
        "</ul></div>"
      : "";
  const percent = Math.round(Math.max(0, Math.min(1, verdict.score)) * 100);
  const fill = verdict.pass && verdict.score >= verdict.minScore ? "pass" : "fail";
  const needs = Math.round(verdict.minScore * 100);
  return (
    `<div class="verdict">${typeof expected === "string" ? `<div class="expectation"><b>expected</b>${foldedText(expected)}</div>` : ""}` +
    `<span class="score">score ${verdict.score.toFixed(2)} / needs ${verdict.minScore.toFixed(2)}</span>` +
    `<span class="bar"><span class="fill ${fill}" style="width:${percent}%"></span>` +
    `<span class="mark" style="left:${needs}%"></span></span>${samplesHtml(verdict)}` +
    `<p class="reason">${escapeHtml(verdict.reason)}</p>` +
    `${list("missing", verdict.missing)}${list("contradictions", verdict.contradictions)}</div>`
  );
}

function sideBySide(check: Check): string {
  if (!("expected" in check) && !("actual" in check)) return "";
  return (
    `<div class="compare"><div><b>expected</b>${foldedText(shown(check.expected))}</div>` +
    `<div><b>actual</b>${foldedText(shown(check.actual))}</div></div>`
  );
}

function checkHtml(check: Check): string {
  const title =
    `<span class="mark">${MARKS[check.outcome]}</span> ` +
    `<span class="contract">${check.contract}</span> ${escapeHtml(check.name)}`;
  const kind = check.verdict && check.outcome === "passed" ? "judged" : check.outcome;
  return (
    `<li class="check ${kind}">${title}${check.message ? foldedText(check.message, "message") : ""}` +
    // A judge's expectation is shown with its verdict: there is no actual value beside it, the answer is above.
    `${check.outcome === "failed" && check.contract !== "judge" ? sideBySide(check) : ""}` +
    `${check.verdict ? verdictHtml(check.verdict, check.expected) : ""}</li>`
  );
}

// Plain text by contract, not an element per check: a 2000-turn page holds some 30,000 of them.
function passedList(passed: readonly Check[]): string {
  const byContract = new Map<string, string[]>();
  for (const check of passed) byContract.set(check.contract, [...(byContract.get(check.contract) ?? []), check.name]);
  return [...byContract]
    .map(([contract, names]) => `<span class="contract">${contract}</span> ${names.map(escapeHtml).join(", ")}`)
    .join("<br>");
}

/** A turn's checks: those that failed or were skipped in full, the passed ones folded into one line. */
export function checksHtml(checks: readonly Check[]): string {
  if (checks.length === 0) return "";
  const shown = checks.filter((check) => check.outcome !== "passed" || check.verdict);
  const passed = checks.filter((check) => check.outcome === "passed" && !check.verdict);
  const order = { failed: 0, passed: 1, skipped: 2 } as const;
  const list = shown
    .sort((a, b) => order[a.outcome] - order[b.outcome])
    .map(checkHtml)
    .join("");
  const folded = passed.length
    ? `<details class="passed-checks"><summary>✓ ${passed.length} check${passed.length === 1 ? "" : "s"} passed</summary>` +
      `<p>${passedList(passed)}</p></details>`
    : "";
  return `${list ? `<ul class="checks">${list}</ul>` : ""}${folded}`;
}
