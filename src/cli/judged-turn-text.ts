import { existsSync, readFileSync } from "node:fs";
import type { JudgedTurn } from "../testing/report/label-drafts.ts";
import { jsonLines } from "../testing/scenario/json-lines.ts";

// An answer past this is shown by its beginning and end: the middle of a long answer is rarely
// where a verdict is decided, and a screenful per turn keeps a session of many turns readable.
const SHOWN_CHARS = 600;

/** `text` whole when short, else its beginning and end with how much was left out between them. */
function shortened(text: string, max = SHOWN_CHARS): string {
  if (text.length <= max) return text;
  const head = text.slice(0, Math.ceil(max * 0.7));
  const tail = text.slice(text.length - Math.floor(max * 0.3));
  return `${head} … [${text.length - head.length - tail.length} characters left out] … ${tail}`;
}

/**
 * `file:line` of the turn in its scenario file when the results name it or the file can still be
 * read from here, else the file alone: the results keep a line only for a turn that failed.
 */
function turnPlace({ conversation, turn }: Pick<JudgedTurn, "conversation" | "turn">): string {
  if (turn.location) return turn.location;
  try {
    if (!existsSync(conversation.file)) return conversation.file;
    const line = jsonLines(readFileSync(conversation.file, "utf8")).get(`/turns/${turn.number - 1}/label`);
    return line === undefined ? conversation.file : `${conversation.file}:${line}`;
  } catch {
    // A file that is no longer JSON: its path is still where to look.
    return conversation.file;
  }
}

function indented(text: string): string {
  return text.replace(/\n/g, "\n             ");
}

/** A judged turn as `flowcheck judge label` shows it before asking: where, what was expected, the answer and the verdict. */
export function judgedTurnText(judged: JudgedTurn, position: string): string {
  const { draft } = judged;
  const { judge } = draft;
  const of = [
    ...(draft.caseLabel === undefined ? [] : [`case ${draft.caseLabel}`]),
    ...(judged.conversation.repeat.of > 1 ? [`repeat ${draft.repeat} of ${judged.conversation.repeat.of}`] : []),
  ];
  const needs = judge.minScore === undefined ? "" : ` (needs ${judge.minScore.toFixed(2)})`;
  return [
    `${position} ${turnPlace(judged)} · turn "${draft.turn}"${of.length ? ` (${of.join(", ")})` : ""}`,
    `  input:     ${indented(shortened(draft.input))}`,
    `  expected:  ${indented(draft.expected)}`,
    `  answer:    ${indented(shortened(draft.answer))}`,
    `  judge:     ${judge.outcome}, score ${judge.score?.toFixed(2)}${needs}: ${indented(judge.reason ?? "(no reason)")}`,
  ].join("\n");
}
