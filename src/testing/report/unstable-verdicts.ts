import { samplesText } from "../judge/samples-text.ts";
import type { ConversationResult, TurnResult } from "./run-results.ts";

/** A turn whose judge's samples disagreed (`JUDGE_SAMPLES` above 1), where it is and how its samples went. */
export interface UnstableVerdict {
  /** The turn's `file:line`, else its scenario file. */
  at: string;
  turn: TurnResult;
  conversation: ConversationResult;
  /** `2 of 3 samples passed, scores 0.9 0.4 0.8`. */
  samples: string;
}

/** Every unstable verdict of `conversations`, in their order. */
export function unstableVerdicts(conversations: readonly ConversationResult[]): UnstableVerdict[] {
  return conversations.flatMap((conversation) =>
    conversation.turns.flatMap((turn) =>
      turn.judge?.unstable && turn.judge.samples
        ? [
            {
              at: turn.location ?? conversation.file,
              turn,
              conversation,
              samples: samplesText(turn.judge.samples, turn.judge.minScore ?? 0),
            },
          ]
        : [],
    ),
  );
}

/**
 * `judged/contact.scenario.json:14 turn 2 'takes the name' (run 2 of 3): 2 of 3 samples passed,
 * scores 0.9 0.4 0.8; passed`: one unstable verdict in a line, with the outcome it was given.
 */
export function unstableLine({ at, turn, conversation, samples }: UnstableVerdict): string {
  const run = conversation.repeat.of > 1 ? ` (run ${conversation.repeat.index} of ${conversation.repeat.of})` : "";
  return `${at} turn ${turn.number} '${turn.label}'${run}: ${samples}; ${turn.judge?.outcome ?? "not graded"}`;
}
