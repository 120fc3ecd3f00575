import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/** The committed calibration the nightly reads, written by `flowcheck judge calibrate --write`. */
export const DEFAULT_JUDGE_CALIBRATION = "scenarios/judge-calibration.json";
/** The calibration every `flowcheck judge calibrate` writes under the artifacts folder. */
export const JUDGE_CALIBRATION_RESULT = "judge-calibration.json";

export const CALIBRATION_VERSION = 1;

/** A labelled answer the judge graded the other way from the person. */
export interface CalibrationMiss {
  /** `scenarios/hotel-flow.scenario.json:27`: the labelled turn in its file. */
  location: string;
  file: string;
  turn: string;
  answer: string;
  /** The median score of the samples, and the reason of the majority's sample nearest it. */
  score: number;
  reason: string;
  note?: string;
}

/** A labelled answer whose samples did not all grade alike. */
export interface CalibrationUnstable {
  location: string;
  file: string;
  turn: string;
  scores: number[];
  /** The highest score less the lowest. */
  spread: number;
}

/** How the judge agrees with the people over a set of labels. */
export interface CalibrationFigures {
  /** Labels graded (those set aside are not counted). */
  labels: number;
  /** The share of labels the judge's verdict agrees with, 0 to 1. */
  agreement: number;
  /** Cohen's κ of judge and people; null when every label is one verdict (κ is then not defined). */
  kappa: number | null;
  falsePasses: CalibrationMiss[];
  falseFails: CalibrationMiss[];
  unstable: CalibrationUnstable[];
  /** The `minScore` that agrees best with the labels, with the agreement it would give. */
  bestMinScore: { minScore: number; agreement: number };
}

/** The judge settings a scenario grades with: one group of `perSettings`. */
export interface JudgeSettings {
  model: string;
  minScore: number;
  /** Whether the scenario gives `judgeInstructions` (then its first line, to tell groups apart). */
  instructions?: string;
}

export interface JudgeCalibration extends CalibrationFigures {
  calibration: typeof CALIBRATION_VERSION;
  /** When it was computed (ISO 8601). */
  writtenAt: string;
  /** The labels file it measured. */
  labelsFile: string;
  /** Samples taken of each labelled answer. */
  samples: number;
  perSettings: (CalibrationFigures & { settings: JudgeSettings })[];
  /** Labels that could not be graded, and why (a turn no scenario has, a scenario that does not load). */
  setAside: { file: string; turn: string; why: string }[];
}

/**
 * The committed calibration, for the nightly's summary and report: undefined when there is none,
 * or when the file is not one this flowcheck wrote (then `problem` says what is wrong with it).
 */
export function readJudgeCalibration(path: string): { calibration?: JudgeCalibration; problem?: string } {
  if (!existsSync(path)) return {};
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    return {
      problem: `${path} is not JSON (${(error as Error).message}); run flowcheck judge calibrate --write again`,
    };
  }
  const file = value as Partial<JudgeCalibration> | null;
  if (
    file?.calibration !== CALIBRATION_VERSION ||
    typeof file.agreement !== "number" ||
    typeof file.writtenAt !== "string" ||
    typeof file.labels !== "number"
  ) {
    return {
      problem: `${path} is not a judge calibration of version ${CALIBRATION_VERSION}; run flowcheck judge calibrate --write again`,
    };
  }
  return { calibration: file as JudgeCalibration };
}

/** Writes the calibration whole, then puts the file in place: the nightly reads the old one or the new, never part of one. */
export function writeJudgeCalibration(path: string, calibration: JudgeCalibration): void {
  mkdirSync(dirname(path), { recursive: true });
  const written = `${path}.${process.pid}.tmp`;
  writeFileSync(written, `${JSON.stringify(calibration, null, 2)}\n`);
  renameSync(written, path);
}
