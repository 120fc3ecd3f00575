import { agreement, cohensKappa } from "./agreement.ts";
import { bestMinScore } from "./best-min-score.ts";
import type { CalibrationItem } from "./calibrate-labels.ts";
import type {
  CalibrationFigures,
  CalibrationMiss,
  CalibrationUnstable,
  JudgeCalibration,
  JudgeSettings,
} from "./judge-calibration-file.ts";
import type { SampledVerdict } from "./sampled-verdict.ts";

/** A label graded again: the judge's verdict of its samples beside the person's. */
export interface GradedLabel {
  item: CalibrationItem;
  verdict: SampledVerdict;
}

function missOf({ item, verdict }: GradedLabel): CalibrationMiss {
  const { file, turn, answer, note } = item.label;
  return {
    location: item.location,
    file,
    turn,
    answer,
    score: verdict.score,
    reason: verdict.reason,
    ...(note ? { note } : {}),
  };
}

function unstableOf({ item, verdict }: GradedLabel): CalibrationUnstable {
  const { file, turn } = item.label;
  return { location: item.location, file, turn, scores: verdict.samples.map((s) => s.score), spread: verdict.spread };
}

/** The minScore most of `graded` are graded at (of equally many, the lowest): the overall figures' current one. */
function commonMinScore(graded: readonly GradedLabel[]): number {
  const counts = new Map<number, number>();
  for (const { item } of graded) counts.set(item.minScore, (counts.get(item.minScore) ?? 0) + 1);
  return [...counts].sort(([a, many], [b, more]) => more - many || a - b)[0]?.[0] ?? 0;
}

/**
 * The figures of `graded`: agreement and κ, the judge's misses both ways, the unstable verdicts,
 * and the minScore that would agree best, moved from `current` (the one most labels are graded at
 * when not given).
 */
export function calibrationFigures(graded: readonly GradedLabel[], current?: number): CalibrationFigures {
  const pairs = graded.map(({ item, verdict }) => ({ human: item.label.human, judgePassed: verdict.passed }));
  const sampled = graded.map(({ item, verdict }) => ({ human: item.label.human, samples: verdict.samples }));
  return {
    labels: graded.length,
    agreement: agreement(pairs),
    kappa: cohensKappa(pairs),
    falsePasses: graded.filter((each) => each.verdict.passed && each.item.label.human === "fail").map(missOf),
    falseFails: graded.filter((each) => !each.verdict.passed && each.item.label.human === "pass").map(missOf),
    unstable: graded.filter((each) => each.verdict.unstable).map(unstableOf),
    bestMinScore: bestMinScore(sampled, current ?? commonMinScore(graded)),
  };
}

/** The figures of each group of labels whose scenarios grade with the same judge settings, in order of first label. */
export function perSettings(graded: readonly GradedLabel[]): JudgeCalibration["perSettings"] {
  const groups = new Map<string, { settings: JudgeSettings; graded: GradedLabel[] }>();
  for (const each of graded) {
    const group = groups.get(each.item.group) ?? { settings: each.item.settings, graded: [] };
    group.graded.push(each);
    groups.set(each.item.group, group);
  }
  return [...groups.values()].map(({ settings, graded: group }) => ({
    settings,
    ...calibrationFigures(group, settings.minScore),
  }));
}
