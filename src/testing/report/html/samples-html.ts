import type { Check } from "../../checks/check.ts";
import { samplePasses } from "../../judge/sampled-verdict.ts";
import { samplesText } from "../../judge/samples-text.ts";
import { escapeHtml } from "./escape-html.ts";

/**
 * A verdict's samples (`JUDGE_SAMPLES` above 1) under its score: each sample's pass or fail at the
 * verdict's `minScore`, its score and reason, and an `unstable` mark when they disagreed.
 */
export function samplesHtml(verdict: NonNullable<Check["verdict"]>): string {
  if (!verdict.samples) return "";
  const items = verdict.samples.map((sample) => {
    const passed = samplePasses(sample, verdict.minScore);
    return (
      `<li class="${passed ? "pass" : "fail"}">${passed ? "✓" : "✗"} ${sample.score.toFixed(2)} ` +
      `<span class="sample-reason">${escapeHtml(sample.reason)}</span></li>`
    );
  });
  const mark = verdict.unstable ? `<span class="chip unstable">unstable</span> ` : "";
  return (
    `<div class="samples">${mark}<span class="facts">${escapeHtml(samplesText(verdict.samples, verdict.minScore))}</span>` +
    `<ol>${items.join("")}</ol></div>`
  );
}
