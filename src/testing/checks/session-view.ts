import type { SessionDocument, SessionHead } from "../../engine/session-document.ts";

/**
 * A session as a target's `SessionReader` reads it: the store's document, with `turns` only where
 * the reader keeps a count of turns. A LangGraph thread or an http target's state endpoint keeps
 * none, so theirs leave it out (saying why in `turnsUnknown`) rather than fill in a number that
 * a check or a transcript could take for the truth.
 */
export type SessionView = Omit<SessionDocument, "turns"> & { turns?: number };

/** A `SessionView` without what grows with the conversation, which is all a turn's checks read. */
export type SessionViewHead = Omit<SessionHead, "turns"> & { turns?: number };

/** The session without its conversation; a head is returned as a copy of itself. */
export function viewHeadOf(session: SessionViewHead | SessionView): SessionViewHead {
  const { memory: _memory, execution: _execution, ...head } = session as SessionView;
  return head;
}
