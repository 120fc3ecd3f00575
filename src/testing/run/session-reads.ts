import { readHead } from "../target/read-head.ts";
import type { SessionReader } from "../target/session-reader.ts";
import type { SessionView, SessionViewHead } from "../checks/session-view.ts";

/** What a turn that expects an error read before it was sent: the store's write mark, then the whole session. */
export interface BeforeTurn {
  mark?: string;
  document?: SessionView;
}

/**
 * An error answer must leave the whole session as it was, conversation included, so such a turn
 * reads it whole before, and after unless the store proves it wrote nothing in between; any other
 * turn's checks read the head alone. The mark is taken first: a write that lands while the session
 * is read then shows as a change.
 */
export async function readBeforeTurn(
  sessions: SessionReader | undefined,
  session: string | undefined,
): Promise<BeforeTurn> {
  if (!sessions || !session) return {};
  const mark = sessions.writeMark?.();
  const document = await sessions.fetchAll(session);
  return { ...(mark === undefined ? {} : { mark }), ...(document ? { document } : {}) };
}

/** The session after the turn: whole after an error answer (or as before, if the store wrote nothing), else its head. */
export function readAfterTurn(
  sessions: SessionReader | undefined,
  session: string | undefined,
  expectsError: boolean,
  before: BeforeTurn,
): Promise<SessionViewHead | SessionView | undefined> | SessionView | undefined {
  if (!sessions || !session) return undefined;
  if (before.mark !== undefined && sessions.writeMark!() === before.mark) return before.document;
  return expectsError ? sessions.fetchAll(session) : readHead(sessions, session);
}
