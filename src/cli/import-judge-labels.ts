import { existsSync, readFileSync } from "node:fs";
import { FlowcheckError } from "../errors.ts";
import {
  type JudgeLabel,
  type LabelConflict,
  mergeJudgeLabels,
  parseJudgeLabels,
  readJudgeLabels,
  writeJudgeLabels,
} from "../testing/judge/judge-labels.ts";
import { judgedTurns } from "../testing/report/label-drafts.ts";
import type { RunResults } from "../testing/report/run-results.ts";

export interface ImportRequest {
  /** The file the report downloaded. */
  downloaded: string;
  labelsFile: string;
  /** The run to check the labels' answers against, and its file; none when there is no results file. */
  results?: { file: string; run: RunResults };
}

/** A turn as a person finds it: its file, label and case. */
function turnOf(label: Pick<JudgeLabel, "file" | "turn" | "caseLabel">): string {
  return `${label.file} · turn "${label.turn}"${label.caseLabel === undefined ? "" : ` (case ${label.caseLabel})`}`;
}

function turnKey(label: Pick<JudgeLabel, "file" | "turn" | "caseLabel">): string {
  return JSON.stringify([label.file, label.caseLabel ?? null, label.turn]);
}

function verdictOf(label: JudgeLabel): string {
  return `${label.human}${label.note ? ` "${label.note}"` : ""}${label.labelledAt ? ` (${label.labelledAt})` : ""}`;
}

function conflictLine({ kept, dropped }: LabelConflict): string {
  return `conflict: ${turnOf(kept)}: kept ${verdictOf(kept)}, dropped ${verdictOf(dropped)}`;
}

/** The answers each judged turn of `run` gave, over its repeats, by file, case and turn. */
function answersByTurn(run: RunResults): Map<string, Set<string>> {
  const answers = new Map<string, Set<string>>();
  for (const { draft } of judgedTurns(run)) {
    const key = turnKey(draft);
    answers.set(key, (answers.get(key) ?? new Set()).add(draft.answerSha256));
  }
  return answers;
}

function downloadedLabels(file: string): JudgeLabel[] {
  if (!existsSync(file))
    throw new FlowcheckError(
      "judge_labels_invalid",
      `${file}: no such file; give the judge-labels.json the report's page downloaded.`,
    );
  return parseJudgeLabels(readFileSync(file, "utf8"), file);
}

/**
 * Merges a labels file downloaded from the report into the labels file and says what it did: the
 * labels added and replaced, each conflict (the newer kept), each label set aside because the run
 * in `results` answered its turn otherwise, and each merged label of a turn that run does not hold.
 * Nothing is written when the downloaded file (or the labels file) is not one.
 */
export function importJudgeLabels({ downloaded, labelsFile, results }: ImportRequest): void {
  const incoming = downloadedLabels(downloaded);
  const existing = readJudgeLabels(labelsFile);
  const answers = results ? answersByTurn(results.run) : undefined;
  // A label the file holds already as it is (a file downloaded twice) is neither new nor a replacement.
  const held = new Set(existing.map((label) => JSON.stringify(label)));
  const kept: JudgeLabel[] = [];
  const notes: string[] = [];
  let unchanged = 0;
  for (const label of incoming) {
    if (held.has(JSON.stringify(label))) {
      unchanged += 1;
      continue;
    }
    const given = answers?.get(turnKey(label));
    if (given && !given.has(label.answerSha256)) {
      const theirs = [...given].map((sha) => sha.slice(0, 8)).join(", ");
      notes.push(
        `set aside: ${turnOf(label)}: the label is of answer ${label.answerSha256.slice(0, 8)}, ` +
          `but ${results!.file} answered it ${theirs}; label it again from this run's report, ` +
          `or pass the results it came from (flowcheck judge label <results> --import ${downloaded})`,
      );
      continue;
    }
    if (answers && !given)
      notes.push(`not in ${results!.file}: ${turnOf(label)}: merged, as the label of an answer of another run`);
    kept.push(label);
  }
  const merged = mergeJudgeLabels(existing, kept);
  if (merged.added + merged.replaced > 0) writeJudgeLabels(labelsFile, merged.labels);
  console.log(
    `${downloaded} into ${labelsFile}: ${merged.added} added, ${merged.replaced} replaced, ${unchanged} there already, ` +
      `${incoming.length - kept.length - unchanged} set aside (${merged.labels.length} in the file)`,
  );
  if (!results) console.log("no run's results were read: the labels' answers were not checked against a run");
  for (const line of [...merged.conflicts.map(conflictLine), ...notes]) console.log(line);
}
