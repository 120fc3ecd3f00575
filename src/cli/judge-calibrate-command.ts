import { existsSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { Config } from "../config.ts";
import { calibrationItems, type CalibrationItem, type CalibrationSetAside } from "../testing/judge/calibrate-labels.ts";
import { calibrationFigures, perSettings, type GradedLabel } from "../testing/judge/calibration-figures.ts";
import {
  CALIBRATION_VERSION,
  DEFAULT_JUDGE_CALIBRATION,
  JUDGE_CALIBRATION_RESULT,
  writeJudgeCalibration,
  type JudgeCalibration,
} from "../testing/judge/judge-calibration-file.ts";
import { DEFAULT_JUDGE_LABELS, readJudgeLabels } from "../testing/judge/judge-labels.ts";
import { PERCENT, renderCalibration } from "../testing/judge/render-calibration.ts";
import { sampleLabel } from "../testing/judge/sample-label.ts";
import { sampledVerdict } from "../testing/judge/sampled-verdict.ts";
import { calibrationJudge, calibrationTapeOf, type SampleOutcome } from "../testing/run/calibration-judge.ts";
import { answerHelp } from "./answer-help.ts";
import { commandConfig } from "./command-config.ts";
import { ARTIFACTS } from "./play-specs.ts";
import { printFailure } from "./print-failure.ts";

const USAGE = `Usage: flowcheck judge calibrate [<labels file>] [--samples <k>] [--min-agreement <0..1>] [--write]

Grades each labelled answer of the labels file (default ${DEFAULT_JUDGE_LABELS}) again with the
run's judge, as its scenario is set up now (model, prompt, judgeInstructions, minScore), and
measures how the judge agrees with the people: agreement and Cohen's κ, overall and per judge
settings, the false passes and false fails with their file:line, the unstable verdicts, and the
minScore that would agree best. Writes ${ARTIFACTS}/${JUDGE_CALIBRATION_RESULT}.

  --samples <k>          asks the judge k times per label, k odd (default 3); the verdict is the
                         majority, and a label whose samples disagree is unstable
  --min-agreement <x>    exits 1 when the agreement is below x, from 0 to 1 (else JUDGE_MIN_AGREEMENT)
  --write                also writes ${DEFAULT_JUDGE_CALIBRATION}, which the nightly shows

The judge's calls go through the provider limits (OPENAI_MAX_INFLIGHT, OPENAI_MAX_RPM,
FLOW_MAX_TOKENS) and, with FLOW_MODEL=record, replay or auto, on the labels file's tape
(${calibrationTapeOf(DEFAULT_JUDGE_LABELS)} for the default). The labels file is never written.
Exits 0, 1 below the agreement asked for or when the calibration cannot be made, 2 for a bad
command line or with no judge to ask.`;

const DEFAULT_SAMPLES = 3;

interface Request {
  labelsFile: string;
  named: boolean;
  samples: number;
  minAgreement: number | undefined;
  write: boolean;
}

/** The command line read, or the line saying what is wrong with it. */
function requestOf(args: readonly string[]): Request | string {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      options: { samples: { type: "string" }, "min-agreement": { type: "string" }, write: { type: "boolean" } },
      allowPositionals: true,
    });
  } catch (error) {
    return (error as Error).message;
  }
  const { positionals, values } = parsed;
  if (positionals.length > 1) return `one labels file at most, not ${positionals.length} (${positionals.join(", ")})`;
  const samples = values.samples === undefined ? DEFAULT_SAMPLES : Number(values.samples);
  if (!/^[0-9]+$/.test(values.samples ?? "3") || samples % 2 === 0)
    return `--samples ${values.samples} is not an odd number of samples: give an odd whole number such as 1, 3 or 5`;
  const asked = values["min-agreement"];
  const minAgreement = asked === undefined ? undefined : Number(asked);
  if (minAgreement !== undefined && (asked!.trim() === "" || !(minAgreement >= 0 && minAgreement <= 1)))
    return `--min-agreement ${asked} is not an agreement: give a fraction from 0 to 1, e.g. 0.9`;
  return {
    labelsFile: positionals[0] ?? DEFAULT_JUDGE_LABELS,
    named: positionals[0] !== undefined,
    samples,
    minAgreement,
    write: values.write === true,
  };
}

/** `flowcheck judge calibrate …`: 0, 1 below the agreement asked for or when it cannot be made, 2 for a bad command line or no judge. */
export async function judgeCalibrateCommand(args: readonly string[]): Promise<number> {
  if (answerHelp(USAGE, args)) return 0;
  const request = requestOf(args);
  if (typeof request === "string") {
    console.error(`flowcheck judge calibrate: ${request}\n\n${USAGE}`);
    return 2;
  }
  if (request.named && !existsSync(request.labelsFile)) {
    console.error(`flowcheck judge calibrate: ${request.labelsFile}: no such labels file.`);
    return 2;
  }
  let config: Config;
  try {
    config = commandConfig().config;
  } catch (error) {
    printFailure(error);
    return 2;
  }
  try {
    return await calibrate(request, config);
  } catch (error) {
    printFailure(error);
    return 1;
  }
}

/** Grades the labels, prints and writes the calibration; the exit code. */
async function calibrate(request: Request, config: Config): Promise<number> {
  const labels = readJudgeLabels(request.labelsFile);
  if (labels.length === 0) {
    console.log(
      `no labels in ${request.labelsFile}: label the judge's verdicts in the report or with flowcheck judge label, then calibrate.`,
    );
    return 1;
  }
  const { items, setAside } = calibrationItems(labels, config.judge.model);
  const judge = calibrationJudge(config, request.labelsFile);
  if ("unavailable" in judge) {
    console.error(`flowcheck judge calibrate: ${judge.unavailable}.`);
    return 2;
  }
  const { outcomes, saved } = await judge.grade(items, (item, client) => sampleLabel(item, request.samples, client));
  const { graded, failed } = gradedOf(items, outcomes);
  const calibration = calibrationOf(request, graded, [...setAside, ...failed]);
  for (const { item } of graded)
    if (item.expectedNow !== undefined)
      console.log(
        `note: ${item.location} › ${item.label.turn}: the scenario's expectation is now ${JSON.stringify(item.expectedNow)}; ` +
          `labels[${item.index}] is graded against the one the person judged, ${JSON.stringify(item.label.expected)}`,
      );
  process.stdout.write(renderCalibration(calibration));
  const out = join(ARTIFACTS, JUDGE_CALIBRATION_RESULT);
  writeJudgeCalibration(out, calibration);
  // A calibration of no label would replace the committed one with an agreement that was never measured.
  const committed = request.write && graded.length > 0;
  if (committed) writeJudgeCalibration(DEFAULT_JUDGE_CALIBRATION, calibration);
  const wrote = committed ? `${out} and ${DEFAULT_JUDGE_CALIBRATION}` : out;
  const taped = judge.mode === "replay" ? `; replayed ${judge.tape}` : saved ? `; ${saved}` : "";
  console.log(`\nwrote ${wrote}${taped}`);
  if (graded.length === 0) {
    console.log(
      "no label could be graded, so the judge's agreement is not known" +
        (request.write ? ` and ${DEFAULT_JUDGE_CALIBRATION} was left as it was` : ""),
    );
    return 1;
  }
  return gate(calibration.agreement, request.minAgreement ?? config.judge.minAgreement);
}

/** Each item's sampled verdict, or the item set aside with the reason it has none. */
function gradedOf(
  items: readonly CalibrationItem[],
  outcomes: readonly SampleOutcome[],
): { graded: GradedLabel[]; failed: CalibrationSetAside[] } {
  const graded: GradedLabel[] = [];
  const failed: CalibrationSetAside[] = [];
  items.forEach((item, at) => {
    const outcome = outcomes[at]!;
    if ("verdicts" in outcome) graded.push({ item, verdict: sampledVerdict(outcome.verdicts, item.minScore) });
    else
      failed.push({
        file: item.label.file,
        turn: item.label.turn,
        why: `labels[${item.index}]: ${item.location} › ${item.label.turn}: ${outcome.problem}`,
      });
  });
  return { graded, failed };
}

function calibrationOf(
  request: Request,
  graded: readonly GradedLabel[],
  setAside: readonly CalibrationSetAside[],
): JudgeCalibration {
  return {
    calibration: CALIBRATION_VERSION,
    writtenAt: new Date().toISOString(),
    labelsFile: request.labelsFile,
    samples: request.samples,
    ...calibrationFigures(graded),
    perSettings: perSettings(graded),
    setAside: [...setAside],
  };
}

/** 1 when the agreement is below the bar asked for, saying so; else 0. */
function gate(agreement: number, bar: number | undefined): number {
  if (bar === undefined) return 0;
  const shown = (value: number) => PERCENT.format(value);
  if (agreement < bar) {
    console.log(
      `the judge's agreement ${shown(agreement)} is below the ${shown(bar)} asked for (--min-agreement or JUDGE_MIN_AGREEMENT)`,
    );
    return 1;
  }
  console.log(`the judge's agreement ${shown(agreement)} reaches the ${shown(bar)} asked for`);
  return 0;
}
