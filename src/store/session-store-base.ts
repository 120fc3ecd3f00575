import { FlowcheckError, isFlowcheckError } from "../errors.ts";
import {
  headOf,
  SESSION_DOCUMENT_VERSION,
  type KeptAnswer,
  type SessionDocument,
  type SessionHead,
  type TurnWrite,
} from "../engine/session-document.ts";
import type { SessionStore } from "../engine/session-store.ts";
import { migrateSession } from "./migrations/migrate-session.ts";
import { validateSessionHead } from "./migrations/session-document-schema.ts";
import type { StoredSession } from "./stored-session.ts";

/** A hook's result: a backend that answers synchronously (SQLite) returns the value itself. */
export type Awaitable<T> = T | Promise<T>;

/**
 * `then` applied to what `start` gives, as one promise, a throw anywhere becoming its rejection;
 * a failure of the backend is rejected as what `failure` makes of it. A synchronous backend's turn
 * then costs one promise per store call rather than one per layer.
 */
function settle<T, R>(
  start: () => Awaitable<T>,
  then: (value: T) => Awaitable<R>,
  failure: (error: unknown) => unknown,
): Promise<R> {
  try {
    const value = start();
    return value instanceof Promise
      ? value.then(then, (error: unknown) => Promise.reject(failure(error)))
      : Promise.resolve(then(value));
  } catch (error) {
    return Promise.reject(failure(error));
  }
}

/**
 * What every store shares: documents migrated and checked on read, and a turn applied only on top
 * of the turn count it was computed from. A backend implements the six hooks below; each write
 * hook must be atomic (all of the turn, its kept answer included, or nothing).
 */
export abstract class SessionStoreBase implements SessionStore {
  abstract readonly description: string;

  /** The stored session, or undefined when there is none under `id`. */
  protected abstract read(id: string): Awaitable<StoredSession | undefined>;
  /** The stored head alone, parsed but not checked; undefined when there is no session under `id`. */
  protected abstract readHead(id: string): Awaitable<unknown>;
  /** Stores a new session; false when `write.head.id` exists already. */
  protected abstract insert(write: TurnWrite): Awaitable<boolean>;
  /** Applies a turn when the stored turn count is `write.baseTurns`; false (nothing written) otherwise. */
  protected abstract apply(write: TurnWrite): Awaitable<boolean>;
  /** The answer kept under `key` in `scope`; undefined when there is none. */
  protected abstract readAnswer(scope: string, key: string): Awaitable<KeptAnswer | undefined>;
  abstract close(): Promise<void>;

  /**
   * The catalogue's error for one of the backend's own failures (a lock, a lost connection, a size
   * limit), which it then is to the client: `store_unavailable`, `session_too_large`. Anything it
   * does not recognise, a bug included, is returned as it is.
   */
  protected failureOf(error: unknown): unknown {
    return error;
  }

  readonly #failure = (error: unknown): unknown => (isFlowcheckError(error) ? error : this.failureOf(error));

  fetchAll(id: string): Promise<SessionDocument | undefined> {
    return settle(
      () => this.read(id),
      (stored) => stored && migrateSession(stored, id, this.description),
      this.#failure,
    );
  }

  fetchHead(id: string): Promise<SessionHead | undefined> {
    return settle(
      () => this.readHead(id),
      (head) => {
        if (head === undefined) return undefined;
        if ((head as { version?: unknown } | null)?.version === SESSION_DOCUMENT_VERSION && validateSessionHead(head))
          return head;
        // An older version is migrated whole; anything else gets the whole document's precise reason.
        return this.fetchAll(id).then((document) => document && headOf(document));
      },
      this.#failure,
    );
  }

  fetchAnswer(scope: string, key: string): Promise<KeptAnswer | undefined> {
    return settle(
      () => this.readAnswer(scope, key),
      (kept) => kept,
      this.#failure,
    );
  }

  create(write: TurnWrite): Promise<void> {
    return settle(
      () => this.insert(write),
      (inserted) => {
        if (!inserted) throw this.#conflict(write, `a session with this id exists already${this.#orKept(write)}`);
      },
      this.#failure,
    );
  }

  saveTurn(write: TurnWrite): Promise<void> {
    return settle(
      () => this.apply(write),
      (applied) => {
        if (!applied)
          throw this.#conflict(write, `it no longer has ${write.baseTurns} turns, or is gone${this.#orKept(write)}`);
      },
      this.#failure,
    );
  }

  #orKept(write: TurnWrite): string {
    return write.answer ? `, or a turn under the key "${write.answer.key}" was saved first` : "";
  }

  #conflict(write: TurnWrite, found: string): FlowcheckError {
    return new FlowcheckError(
      "session_conflict",
      `Session "${write.head.id}" changed while this turn ran: the turn was based on ${write.baseTurns} turns but ${found}. ` +
        "The turn was not applied; send the message again.",
    );
  }
}
