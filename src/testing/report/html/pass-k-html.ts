import { percent, shownK, successText } from "../pass-k-shown.ts";
import type { SimulatedSummary } from "../run-results.ts";
import { escapeHtml } from "./escape-html.ts";

/**
 * The simulated scenarios' successes over their tries and pass^k, a column for each k shown (1, 2
 * and the most tries), the run's row last; a k beyond a scenario's tries is blank.
 */
export function passKHtml(summary: SimulatedSummary | undefined): string {
  if (!summary) return "";
  const ks = shownK(summary.passK);
  const cells = (passK: readonly number[]) =>
    ks.map((k) => `<td>${passK[k - 1] === undefined ? "" : percent(passK[k - 1]!)}</td>`).join("");
  const rows = summary.scenarios.map(
    (scenario) =>
      `<tr${scenario.flaky ? ' class="flaky"' : ""}><td>${escapeHtml(scenario.name)}</td><td>${escapeHtml(successText(scenario))}</td>${cells(scenario.passK)}</tr>`,
  );
  return (
    `<section class="panel"><h2>Simulated users <span class="facts">pass^k: the chance k tries all succeed</span></h2>` +
    `<table class="pass-k"><tr><th>scenario</th><th>succeeded</th>${ks.map((k) => `<th>pass^${k}</th>`).join("")}</tr>` +
    `${rows.join("")}<tr class="run"><th>run</th><th></th>${cells(summary.passK)}</tr></table></section>`
  );
}
