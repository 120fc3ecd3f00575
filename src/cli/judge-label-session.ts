import { createInterface } from "node:readline";
import { type JudgeLabel, labelKey, readJudgeLabels, writeJudgeLabels } from "../testing/judge/judge-labels.ts";
import type { JudgedTurn } from "../testing/report/label-drafts.ts";
import { judgedTurnText } from "./judged-turn-text.ts";

const QUESTION =
  "Is the judge right? y (right) · n (wrong) · s (skip) · q (quit); a note may follow y or n (n the price is wrong): ";

type Answer = { human: "right" | "wrong"; note?: string } | "skip" | "quit";

/** One line's answer, or undefined when it is none of y, n, s, q (a note after y or n allowed). */
function answerOf(line: string): Answer | undefined {
  const match = /^\s*(\S+)(?:\s+(.*?))?\s*$/.exec(line);
  const [key, note] = [match?.[1]?.toLowerCase(), match?.[2]];
  if (key === "y" || key === "n") return { human: key === "y" ? "right" : "wrong", ...(note ? { note } : {}) };
  if ((key === "s" || key === "q") && !note) return key === "s" ? "skip" : "quit";
  return undefined;
}

function labelled(judged: JudgedTurn, answer: { human: "right" | "wrong"; note?: string }): JudgeLabel {
  const { conversation, ...draft } = judged.draft;
  const verdict = draft.judge.outcome === "passed" ? "pass" : "fail";
  return {
    ...draft,
    human: answer.human === "right" ? verdict : verdict === "pass" ? "fail" : "pass",
    ...(answer.note ? { note: answer.note } : {}),
    conversation,
    labelledAt: new Date().toISOString(),
  };
}

/**
 * Asks, one judged turn at a time, whether the judge is right, reading a line of stdin for each
 * (piped input works as a terminal does), and writes the labels file after every label: a session
 * ended by `q`, the end of the input or Ctrl-C keeps every label given. Turns whose answer is
 * labelled already are not asked.
 */
export async function labelInTerminal(judged: readonly JudgedTurn[], labelsFile: string): Promise<void> {
  let labels = readJudgeLabels(labelsFile);
  const done = new Set(labels.map(labelKey));
  const queue = judged.filter((each) => !done.has(labelKey(each.draft)));
  const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
  let interrupted = false;
  const stop = () => {
    interrupted = true;
    lines.close();
  };
  process.once("SIGINT", stop);
  const reader = lines[Symbol.asyncIterator]();
  const count = { labelled: 0, skipped: 0 };
  let index = 0;
  let ended = "";
  try {
    for (; index < queue.length; index++) {
      const next = queue[index]!;
      // Two repeats can give one answer: labelled once, it is not asked again.
      if (done.has(labelKey(next.draft))) continue;
      console.log(`\n${judgedTurnText(next, `[${index + 1}/${queue.length}]`)}`);
      const answer = await ask(reader);
      if (answer === "quit" || answer === undefined) {
        ended = answer === "quit" ? "quit" : interrupted ? "interrupted" : "the input ended";
        break;
      }
      if (answer === "skip") {
        count.skipped += 1;
        continue;
      }
      labels = [...labels, labelled(next, answer)];
      writeJudgeLabels(labelsFile, labels);
      done.add(labelKey(next.draft));
      count.labelled += 1;
    }
  } finally {
    process.removeListener("SIGINT", stop);
    lines.close();
  }
  const left = queue.slice(index).filter((each) => !done.has(labelKey(each.draft))).length;
  console.log(
    `\n${ended ? `${ended}: ` : ""}${count.labelled} labelled, ${count.skipped} skipped, ${left} left; the labels are in ${labelsFile}`,
  );
}

/** The answer to the question, asked again until the line is one; undefined at the end of the input. */
async function ask(reader: AsyncIterator<string>): Promise<Answer | undefined> {
  for (;;) {
    process.stdout.write(QUESTION);
    const line = await reader.next();
    if (line.done) {
      process.stdout.write("\n");
      return undefined;
    }
    const answer = answerOf(line.value);
    if (answer) return answer;
    console.log(`"${line.value}" is not an answer: type y, n, s or q, and after y or n a note if you like.`);
  }
}
