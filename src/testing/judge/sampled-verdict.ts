import type { Verdict } from "../checks/check.ts";

/** One of a verdict's samples, as the results keep it. */
export interface JudgeSample {
  pass: boolean;
  score: number;
  reason: string;
}

/** A verdict made of `k` samples: the majority of their graded outcomes, and the median of their scores. */
export interface SampledVerdict {
  /** Whether most samples passed: `pass` and a score at or above `minScore`. */
  passed: boolean;
  /** The median of the samples' scores. */
  score: number;
  /** The reason of a sample on the majority's side, the one whose score is nearest the median. */
  reason: string;
  /** That sample's place among the samples. */
  chosen: number;
  samples: JudgeSample[];
  /** The samples did not all grade alike. */
  unstable: boolean;
  /** The highest score less the lowest. */
  spread: number;
}

/** The median of an odd or even count of numbers (the mean of the middle two for an even one). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Whether one sample passes at `minScore`, as a verdict of one sample does. */
export function samplePasses(sample: Pick<Verdict, "pass" | "score">, minScore: number): boolean {
  return sample.pass === true && sample.score >= minScore;
}

/**
 * The verdict of an odd number of samples graded at `minScore`. With one sample it is that sample's
 * verdict, and never unstable.
 */
export function sampledVerdict(samples: readonly Verdict[], minScore: number): SampledVerdict {
  if (samples.length === 0 || samples.length % 2 === 0) {
    throw new RangeError(`a verdict needs an odd number of samples, not ${samples.length}`);
  }
  const outcomes = samples.map((sample) => samplePasses(sample, minScore));
  const passes = outcomes.filter(Boolean).length;
  const passed = passes * 2 > samples.length;
  const score = median(samples.map((sample) => sample.score));
  const side = samples.flatMap((_, index) => (outcomes[index] === passed ? [index] : []));
  const chosen = side.reduce((best, index) =>
    Math.abs(samples[index]!.score - score) < Math.abs(samples[best]!.score - score) ? index : best,
  );
  const scores = samples.map((sample) => sample.score);
  return {
    passed,
    score,
    reason: samples[chosen]!.reason,
    chosen,
    samples: samples.map(({ pass, score: each, reason }) => ({ pass, score: each, reason })),
    unstable: passes !== 0 && passes !== samples.length,
    spread: Math.max(...scores) - Math.min(...scores),
  };
}
