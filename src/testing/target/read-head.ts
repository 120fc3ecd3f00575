import type { SessionReader } from "./session-reader.ts";
import { viewHeadOf, type SessionViewHead } from "../checks/session-view.ts";

/** The session's head, which is all a turn's checks read: the reader's own, else cut from the whole session. */
export function readHead(sessions: SessionReader, id: string): Promise<SessionViewHead | undefined> {
  return sessions.fetchHead
    ? sessions.fetchHead(id)
    : sessions.fetchAll(id).then((document) => document && viewHeadOf(document));
}
