import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { FlowcheckError } from "../../errors.ts";
import { compileSchema } from "../../engine/schema-validator.ts";
import { describeSchemaError } from "../scenario/describe-schema-error.ts";

/** Where the committed labels live unless `--labels` names another file. */
export const DEFAULT_JUDGE_LABELS = "scenarios/judge-labels.json";

/**
 * A person's word on one judged answer: whether the answer meets its expectation. Besides the keys
 * a person can check by eye, a label carries what grading the answer again needs: the input it
 * answered and the conversation before it (`whole`: the expectation is a criterion over every turn).
 * More keys are allowed, and kept.
 */
export interface JudgeLabel {
  /** The scenario file, as the run's results name it (`scenarios/hotel-flow.scenario.json`). */
  file: string;
  /** The turn's label in that file. */
  turn: string;
  expected: string;
  answer: string;
  /** Hex SHA-256 of `answer`'s UTF-8: which answer the label is of, whatever a run answers later. */
  answerSha256: string;
  human: "pass" | "fail";
  note?: string;
  /** The turn's input as text, and the answered turns before it, oldest first. */
  input?: string;
  conversation?: { user: string; assistant: string }[];
  whole?: boolean;
  /** The scenario's case, and the repeat the answer came from. */
  caseLabel?: string;
  repeat?: number;
  /** What the run's judge said of the answer when it was labelled. */
  judge?: { outcome: "passed" | "failed" | "skipped"; score?: number; minScore?: number; reason?: string };
  /** When the person labelled it (ISO 8601): of two labels of one answer, the newer wins. */
  labelledAt?: string;
  [key: string]: unknown;
}

export interface JudgeLabelsFile {
  labels: JudgeLabel[];
}

const STRING = { type: "string" };
const validateLabels = compileSchema<JudgeLabelsFile>(
  {
    type: "object",
    required: ["labels"],
    properties: {
      labels: {
        type: "array",
        items: {
          type: "object",
          required: ["file", "turn", "expected", "answer", "answerSha256", "human"],
          properties: {
            file: { type: "string", minLength: 1 },
            turn: { type: "string", minLength: 1 },
            expected: STRING,
            answer: STRING,
            answerSha256: { type: "string", pattern: "^[0-9a-f]{64}$" },
            human: { enum: ["pass", "fail"] },
            note: STRING,
            input: STRING,
            conversation: {
              type: "array",
              items: {
                type: "object",
                required: ["user", "assistant"],
                properties: { user: STRING, assistant: STRING },
              },
            },
            whole: { type: "boolean" },
            caseLabel: STRING,
            repeat: { type: "integer", minimum: 1 },
            labelledAt: STRING,
          },
        },
      },
    },
    // The scenario file's dialect: its errors carry the value found, which the message quotes.
  },
  "2020-12",
);

/** Hex SHA-256 of a text's UTF-8. */
export function answerSha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** Which answer of which turn a label is of: two labels with one key are of the same answer. */
export function labelKey(label: Pick<JudgeLabel, "file" | "turn" | "answerSha256" | "caseLabel">): string {
  return JSON.stringify([label.file, label.caseLabel ?? null, label.turn, label.answerSha256]);
}

/**
 * The labels in a labels file's text, checked: every problem is named by its JSON path (`labels[3].human`),
 * with the value found and what is allowed, and an `answerSha256` that is not its answer's is refused.
 */
export function parseJudgeLabels(text: string, path: string): JudgeLabel[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw invalid(path, [`it is not JSON (${(error as Error).message})`]);
  }
  if (!validateLabels(value)) {
    throw invalid(
      path,
      (validateLabels.errors ?? []).map((error) => describeSchemaError(error)),
    );
  }
  const problems = value.labels.flatMap((label, index) =>
    answerSha256(label.answer) === label.answerSha256
      ? []
      : [
          `labels[${index}].answerSha256: it is not the SHA-256 of labels[${index}].answer (${answerSha256(label.answer)}); ` +
            "a label is of the answer it quotes: fix the hash, or label the answer again",
        ],
  );
  if (problems.length) throw invalid(path, problems);
  return value.labels;
}

/** The labels file at `path`; none when it does not exist yet. */
export function readJudgeLabels(path: string): JudgeLabel[] {
  if (!existsSync(path)) return [];
  return parseJudgeLabels(readFileSync(path, "utf8"), path);
}

function invalid(path: string, problems: string[]): FlowcheckError {
  return new FlowcheckError(
    "judge_labels_invalid",
    `${path} is not a judge labels file, so nothing was read from it or written to it:\n- ${problems.join("\n- ")}\n` +
      'A labels file is { "labels": [{ "file", "turn", "expected", "answer", "answerSha256", "human": "pass" | "fail", "note" }] }: ' +
      "download it again from the report, or fix the keys named above.",
    { details: problems },
  );
}

/** Two labels of one answer that disagree: the newer one was kept. */
export interface LabelConflict {
  kept: JudgeLabel;
  dropped: JudgeLabel;
}

/**
 * `incoming` merged into `existing`: a label of an answer already labelled replaces the older one
 * (the later `labelledAt`, else the incoming one), and where the two disagree (`human` or `note`) the
 * conflict is reported. Order is kept: replaced labels stay where they were, new ones go last.
 */
export function mergeJudgeLabels(
  existing: readonly JudgeLabel[],
  incoming: readonly JudgeLabel[],
): { labels: JudgeLabel[]; added: number; replaced: number; conflicts: LabelConflict[] } {
  const labels = [...existing];
  const at = new Map(labels.map((label, index) => [labelKey(label), index]));
  let added = 0;
  let replaced = 0;
  const conflicts: LabelConflict[] = [];
  for (const label of incoming) {
    const key = labelKey(label);
    const index = at.get(key);
    if (index === undefined) {
      at.set(key, labels.length);
      labels.push(label);
      added += 1;
      continue;
    }
    const old = labels[index]!;
    const newer = (old.labelledAt ?? "") > (label.labelledAt ?? "") ? old : label;
    const older = newer === old ? label : old;
    if (old.human !== label.human || (old.note ?? "") !== (label.note ?? "")) {
      conflicts.push({ kept: newer, dropped: older });
    }
    if (newer !== old) {
      labels[index] = newer;
      replaced += 1;
    }
  }
  return { labels, added, replaced, conflicts };
}

/**
 * Writes the labels whole, then puts the file in place: a reader, or a `judge label` stopped
 * half-way, finds the old file or the new, never part of one.
 */
export function writeJudgeLabels(path: string, labels: readonly JudgeLabel[]): void {
  mkdirSync(dirname(path), { recursive: true });
  const written = `${path}.${process.pid}.tmp`;
  writeFileSync(written, `${JSON.stringify({ labels: [...labels] } satisfies JudgeLabelsFile, null, 2)}\n`);
  renameSync(written, path);
}
