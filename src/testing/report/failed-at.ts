import type { ConversationResult } from "./run-results.ts";

/** The `file:line` of a conversation's first failure: a turn's, its judge's, or its final state's. */
export function failedAt(conversation: ConversationResult): string | undefined {
  const turn = conversation.turns.find((turn) => turn.outcome === "failed" || turn.judge?.outcome === "failed");
  return turn ? turn.location : conversation.final?.outcome === "failed" ? conversation.final.location : undefined;
}
