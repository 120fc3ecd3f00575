import type { JudgeSample } from "./sampled-verdict.ts";
import { samplePasses } from "./sampled-verdict.ts";

/**
 * A verdict's samples in words, for the test's output, the summaries and the report:
 * `2 of 3 samples passed, scores 0.9 0.4 0.8`.
 */
export function samplesText(samples: readonly JudgeSample[], minScore: number): string {
  const passed = samples.filter((sample) => samplePasses(sample, minScore)).length;
  return `${passed} of ${samples.length} samples passed, scores ${samples.map((sample) => sample.score).join(" ")}`;
}
