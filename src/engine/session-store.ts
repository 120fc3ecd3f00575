import type { KeptAnswer, SessionDocument, SessionHead, TurnWrite } from "./session-document.ts";

/**
 * What the engine needs from a store. Backends live in `src/store/<backend>/`.
 * `create` and `saveTurn` are atomic: after a failure nothing of the turn is stored.
 * Both throw `session_conflict` when the stored turn count is not `write.baseTurns`, or when
 * `write.answer` names a scope and key that a stored answer has already. A failure of the store
 * itself is `store_unavailable`, or `session_too_large` past a backend's size limit.
 */
export interface SessionStore {
  readonly description: string;
  fetchAll(id: string): Promise<SessionDocument | undefined>;
  /** The session without its conversation (memory, execution log): what a turn's checks need. */
  fetchHead(id: string): Promise<SessionHead | undefined>;
  /**
   * Optional: a number that changes whenever another connection or process commits to the store,
   * and only then. Equal marks before and after mean this process's own writes are all there is, so
   * a session it saved in between is stored exactly as it saved it.
   */
  changeMark?(): number;
  /** The answer kept under `key` in `scope` (a session id, or "" for a first turn); undefined when there is none. */
  fetchAnswer(scope: string, key: string): Promise<KeptAnswer | undefined>;
  create(write: TurnWrite): Promise<void>;
  saveTurn(write: TurnWrite): Promise<void>;
  close(): Promise<void>;
}
