import { DEFAULT_JUDGE_CALIBRATION } from "../judge/judge-calibration-file.ts";
import type { JudgeCalibrationHeadline, RunResults } from "./run-results.ts";

const DAY = 24 * 60 * 60 * 1000;

/** How long before the run the calibration was written, in whole days. */
function ageText(writtenAt: string, startedAt: string): string {
  const days = Math.floor((Date.parse(startedAt) - Date.parse(writtenAt)) / DAY);
  if (!Number.isFinite(days)) return "";
  if (days < 0) return " (after this run began)";
  if (days === 0) return " (the day of this run)";
  return ` (${days} day${days === 1 ? "" : "s"} before this run)`;
}

/**
 * The calibration in one sentence: `the judge agrees with people on 92% of 12 labels (κ 0.83),
 * calibrated 2026-12-01 (3 days before this run)`.
 */
function calibrationSentence(calibration: JudgeCalibrationHeadline, startedAt: string): string {
  const kappa = calibration.kappa === null ? "n/a (one class)" : calibration.kappa.toFixed(2);
  return (
    `the judge agrees with people on ${Math.round(calibration.agreement * 100)}% of ${calibration.labels} label${calibration.labels === 1 ? "" : "s"} (κ ${kappa}), ` +
    `calibrated ${calibration.writtenAt.slice(0, 10)}${ageText(calibration.writtenAt, startedAt)}`
  );
}

/**
 * What the run's summaries say, each under its own "judge calibration" label, of how far the run's
 * judge is to be trusted: the committed calibration's sentence, or, when the run judged something
 * without one, how to make one; nothing otherwise.
 */
export function judgeCalibrationText(results: RunResults): string | undefined {
  if (results.judgeCalibration) return calibrationSentence(results.judgeCalibration, results.startedAt);
  if (results.totals.judge.graded === 0) return undefined;
  return `none committed (${DEFAULT_JUDGE_CALIBRATION}); label some of its verdicts, then run flowcheck judge calibrate --write`;
}
