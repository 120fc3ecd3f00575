import { DEFAULT_JUDGE_CALIBRATION, readJudgeCalibration } from "../judge/judge-calibration-file.ts";
import type { JudgeCalibrationHeadline } from "./run-results.ts";

/**
 * The headline of the committed calibration `file` (relative to the working directory, as the
 * run names it) for a run's results: none when the file is not there; `problem` when it is there
 * but is not a calibration, saying what to run.
 */
export function judgeCalibrationHeadline(file: string = DEFAULT_JUDGE_CALIBRATION): {
  headline?: JudgeCalibrationHeadline;
  problem?: string;
} {
  const { calibration, problem } = readJudgeCalibration(file);
  if (calibration === undefined) return problem === undefined ? {} : { problem };
  const { writtenAt, labels, agreement, kappa, bestMinScore, samples } = calibration;
  return { headline: { file, writtenAt, labels, agreement, kappa, bestMinScore, samples } };
}

/** Of the shards' calibrations, the newest: shards of one run read the same file, unless it changed between them. */
export function newestJudgeCalibration(
  headlines: readonly (JudgeCalibrationHeadline | undefined)[],
): JudgeCalibrationHeadline | undefined {
  let newest: JudgeCalibrationHeadline | undefined;
  for (const headline of headlines)
    if (headline && (!newest || Date.parse(headline.writtenAt) > Date.parse(newest.writtenAt))) newest = headline;
  return newest;
}
