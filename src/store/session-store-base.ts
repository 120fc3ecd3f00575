import { FlowcheckError } from "../errors.ts";
import { headOf, SESSION_DOCUMENT_VERSION, type SessionDocument, type SessionHead, type TurnWrite } from "../engine/session-document.ts";
import type { SessionStore } from "../engine/session-store.ts";
import { migrateSession } from "./migrations/migrate-session.ts";
import { validateSessionHead } from "./migrations/session-document-schema.ts";
import type { StoredSession } from "./stored-session.ts";

/**
 * What every store shares: documents migrated and checked on read, and a turn applied only on top
 * of the turn count it was computed from. A backend implements the five hooks below; each write
 * hook must be atomic (all of the turn, or nothing).
 */
export abstract class SessionStoreBase implements SessionStore {
  abstract readonly description: string;

  /** The stored session, or undefined when there is none under `id`. */
  protected abstract read(id: string): Promise<StoredSession | undefined>;
  /** The stored head alone, parsed but not checked; undefined when there is no session under `id`. */
  protected abstract readHead(id: string): Promise<unknown>;
  /** Stores a new session; false when `write.head.id` exists already. */
  protected abstract insert(write: TurnWrite): Promise<boolean>;
  /** Applies a turn when the stored turn count is `write.baseTurns`; false (nothing written) otherwise. */
  protected abstract apply(write: TurnWrite): Promise<boolean>;
  abstract close(): Promise<void>;

  async fetchAll(id: string): Promise<SessionDocument | undefined> {
    const stored = await this.read(id);
    return stored && migrateSession(stored, id, this.description);
  }

  async fetchHead(id: string): Promise<SessionHead | undefined> {
    const head = await this.readHead(id);
    if (head === undefined) return undefined;
    if ((head as { version?: unknown } | null)?.version === SESSION_DOCUMENT_VERSION && validateSessionHead(head)) return head;
    // An older version is migrated whole; anything else gets the whole document's precise reason.
    const document = await this.fetchAll(id);
    return document && headOf(document);
  }

  async create(write: TurnWrite): Promise<void> {
    if (!(await this.insert(write))) throw this.#conflict(write, "a session with this id exists already");
  }

  async saveTurn(write: TurnWrite): Promise<void> {
    if (!(await this.apply(write))) throw this.#conflict(write, `it no longer has ${write.baseTurns} turns, or is gone`);
  }

  #conflict(write: TurnWrite, found: string): FlowcheckError {
    return new FlowcheckError(
      "session_conflict",
      `Session "${write.head.id}" changed while this turn ran: the turn was based on ${write.baseTurns} turns but ${found}. ` +
        "The turn was not applied; send the message again.",
    );
  }
}
