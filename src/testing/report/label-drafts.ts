import { answerSha256, type JudgeLabel } from "../judge/judge-labels.ts";
import { inputText } from "../scenario/turn-input.ts";
import type { ConversationResult, RunResults, TurnResult } from "./run-results.ts";

/** A label before a person gave it: everything but their word (`human`, `note`) and when they gave it. */
export type LabelDraft = Pick<JudgeLabel, "file" | "turn" | "expected" | "answer" | "answerSha256" | "caseLabel"> &
  Required<Pick<JudgeLabel, "input" | "conversation" | "repeat" | "judge">>;

/** A draft without the conversation before its turn: the page keeps that once per conversation. */
export type TurnDraft = Omit<LabelDraft, "conversation">;

/** A judged turn of a run, ready for a person's label: where it is, and the label's draft. */
export interface JudgedTurn {
  conversation: ConversationResult;
  turn: TurnResult;
  draft: LabelDraft;
}

/**
 * The draft of a label of `conversation`'s turn at `index`, without the conversation before it;
 * undefined unless the judge gave it a verdict (passed or failed with a score, never skipped) on an
 * answer against an expectation the results name: only such a verdict can be right or wrong.
 */
export function turnDraftOf(conversation: ConversationResult, index: number): TurnDraft | undefined {
  const turn = conversation.turns[index];
  const judge = turn?.judge;
  if (!turn?.answer || !judge || judge.outcome === "skipped" || judge.score === undefined) return undefined;
  if (judge.expected === undefined) return undefined;
  return {
    file: conversation.file,
    turn: turn.label,
    expected: judge.expected,
    answer: turn.answer.text,
    answerSha256: answerSha256(turn.answer.text),
    input: inputText(turn.input),
    ...(conversation.caseLabel === undefined ? {} : { caseLabel: conversation.caseLabel }),
    repeat: conversation.repeat.index,
    judge: {
      outcome: judge.outcome,
      score: judge.score,
      ...(judge.minScore === undefined ? {} : { minScore: judge.minScore }),
      ...(judge.reason === undefined ? {} : { reason: judge.reason }),
    },
  };
}

/** The answered turns of a conversation, oldest first, as the judge read them as the conversation before a turn. */
export function exchangesOf(turns: readonly TurnResult[]): { user: string; assistant: string }[] {
  return turns.flatMap((turn) => (turn.answer ? [{ user: inputText(turn.input), assistant: turn.answer.text }] : []));
}

/** Every turn of `results` a person can label, in the results' order, each with its whole draft. */
export function judgedTurns(results: RunResults): JudgedTurn[] {
  return results.conversations.flatMap((conversation) =>
    conversation.turns.flatMap((turn, index) => {
      const draft = turnDraftOf(conversation, index);
      if (!draft) return [];
      return [
        { conversation, turn, draft: { ...draft, conversation: exchangesOf(conversation.turns.slice(0, index)) } },
      ];
    }),
  );
}
