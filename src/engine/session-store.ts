import type { SessionDocument, SessionHead, TurnWrite } from "./session-document.ts";

/**
 * What the engine needs from a store. Backends live in `src/store/<backend>/`.
 * `create` and `saveTurn` are atomic: after a failure nothing of the turn is stored.
 * Both throw `session_conflict` when the stored turn count is not `write.baseTurns`.
 */
export interface SessionStore {
  readonly description: string;
  fetchAll(id: string): Promise<SessionDocument | undefined>;
  /** The session without its conversation (memory, execution log): what a turn's checks need. */
  fetchHead(id: string): Promise<SessionHead | undefined>;
  create(write: TurnWrite): Promise<void>;
  saveTurn(write: TurnWrite): Promise<void>;
  close(): Promise<void>;
}
