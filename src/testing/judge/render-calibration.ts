import type {
  CalibrationFigures,
  CalibrationMiss,
  CalibrationUnstable,
  JudgeCalibration,
  JudgeSettings,
} from "./judge-calibration-file.ts";

/** A share as the calibration prints it: `66.7%`. */
export const PERCENT = new Intl.NumberFormat("en-US", { style: "percent", maximumFractionDigits: 1 });
const SCORE = new Intl.NumberFormat("en-US", { maximumFractionDigits: 3 });
const ANSWER_SHOWN = 80;

/** `Hello there, how …`: an answer on one line, cut short. */
export function cutShort(text: string, length = ANSWER_SHOWN): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > length ? `${line.slice(0, length - 1)}…` : line;
}

function labelsText(count: number): string {
  return `${count} label${count === 1 ? "" : "s"}`;
}

function kappaText(kappa: number | null): string {
  return kappa === null ? "n/a (one class)" : kappa.toFixed(2);
}

function missLines(title: string, misses: readonly CalibrationMiss[]): string[] {
  if (misses.length === 0) return [`  ${title}: none`];
  return [
    `  ${title}: ${misses.length}`,
    ...misses.flatMap((miss) => [
      `    ${miss.location} › ${miss.turn}`,
      `      answer: ${JSON.stringify(cutShort(miss.answer))}`,
      `      judge: score ${SCORE.format(miss.score)}: ${cutShort(miss.reason, 160)}`,
      ...(miss.note ? [`      note: ${cutShort(miss.note, 160)}`] : []),
    ]),
  ];
}

function unstableLines(unstable: readonly CalibrationUnstable[]): string[] {
  if (unstable.length === 0) return ["  unstable verdicts (the samples disagree): none"];
  return [
    `  unstable verdicts (the samples disagree): ${unstable.length}`,
    ...unstable.map(
      (each) =>
        `    ${each.location} › ${each.turn}: scores ${each.scores.map((s) => SCORE.format(s)).join(", ")} ` +
        `(spread ${SCORE.format(each.spread)})`,
    ),
  ];
}

/** One group's figures: agreement and κ, the best minScore, the misses both ways and the unstable verdicts. */
function figureLines(heading: string, figures: CalibrationFigures): string[] {
  const agreeing = Math.round(figures.agreement * figures.labels);
  const best = figures.bestMinScore;
  return [
    heading,
    `  agreement: ${PERCENT.format(figures.agreement)} (${agreeing} of ${figures.labels})`,
    `  Cohen's κ: ${kappaText(figures.kappa)}`,
    `  best minScore: ${SCORE.format(best.minScore)} (agreement ${PERCENT.format(best.agreement)})`,
    ...missLines("false passes (the judge passed, the people failed)", figures.falsePasses),
    ...missLines("false fails (the judge failed, the people passed)", figures.falseFails),
    ...unstableLines(figures.unstable),
  ];
}

function settingsText(settings: JudgeSettings): string {
  const instructions = settings.instructions ? `, judgeInstructions "${cutShort(settings.instructions, 60)}"` : "";
  return `judge ${settings.model}, minScore ${SCORE.format(settings.minScore)}${instructions}`;
}

/** The calibration as the terminal shows it: overall, then per judge settings, then the labels set aside. */
export function renderCalibration(calibration: JudgeCalibration): string {
  const lines = [
    `judge calibration of ${calibration.labelsFile}: ${labelsText(calibration.labels)} graded, ` +
      `${calibration.samples} sample${calibration.samples === 1 ? "" : "s"} each`,
    "",
    ...figureLines(`overall (${labelsText(calibration.labels)})`, calibration),
  ];
  if (calibration.perSettings.length > 1) {
    for (const group of calibration.perSettings)
      lines.push("", ...figureLines(`${settingsText(group.settings)} (${labelsText(group.labels)})`, group));
  } else if (calibration.perSettings[0]) {
    lines.push("", `every label is graded with ${settingsText(calibration.perSettings[0].settings)}`);
  }
  if (calibration.setAside.length) {
    lines.push("", `set aside, not counted: ${calibration.setAside.length}`);
    for (const each of calibration.setAside) lines.push(`  ${each.why}`);
  }
  return `${lines.join("\n")}\n`;
}
