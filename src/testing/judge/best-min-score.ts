import type { JudgeSample } from "./sampled-verdict.ts";
import { samplePasses } from "./sampled-verdict.ts";
import { agreement } from "./agreement.ts";

/** A labelled answer's samples, and the person's verdict on it. */
export interface SampledLabel {
  human: "pass" | "fail";
  samples: readonly Pick<JudgeSample, "pass" | "score">[];
}

/** The judge's verdict on `label` at `minScore`: the majority of its samples' graded outcomes. */
function passesAt(label: SampledLabel, minScore: number): boolean {
  return label.samples.filter((sample) => samplePasses(sample, minScore)).length * 2 > label.samples.length;
}

/**
 * The `minScore` at which the judge agrees best with the people, and that agreement. The candidates
 * are the samples' distinct scores (between two of them every threshold grades alike) and `current`;
 * of those that agree equally well, the one nearest `current` wins, so a threshold is not moved for
 * nothing.
 */
export function bestMinScore(
  labels: readonly SampledLabel[],
  current: number,
): { minScore: number; agreement: number } {
  const candidates = [...new Set([current, ...labels.flatMap((label) => label.samples.map((s) => s.score))])];
  let best = { minScore: current, agreement: -1 };
  for (const minScore of candidates) {
    const at = agreement(labels.map((label) => ({ human: label.human, judgePassed: passesAt(label, minScore) })));
    const nearer = Math.abs(minScore - current) < Math.abs(best.minScore - current);
    if (at > best.agreement || (at === best.agreement && nearer)) best = { minScore, agreement: at };
  }
  return best;
}
