import type { SessionDocument } from "./session-document.ts";

/** A session as this process saved it last. */
export interface RecentSession {
  document: SessionDocument;
  /** The store's change mark from before the turn that saved it, when the store has them (see SessionStore.changeMark). */
  mark: number | undefined;
}

/**
 * The sessions this process saved last, so that a turn does not read back what it wrote a moment
 * ago: the whole conversation, whose cost grows with every turn, and, while nothing else has
 * written to the store since (the store's change mark says so), not even the head. A turn takes
 * its session out while it runs, since it changes it in place, so a turn that fails leaves nothing
 * half-applied behind. The least recently saved go first.
 */
export class RecentConversations {
  readonly #limit: number;
  readonly #sessions = new Map<string, RecentSession>();

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Session `id` as saved last, removed from here. */
  take(id: string): RecentSession | undefined {
    const session = this.#sessions.get(id);
    if (session !== undefined) this.#sessions.delete(id);
    return session;
  }

  keep(session: RecentSession): void {
    const id = session.document.id;
    this.#sessions.delete(id);
    this.#sessions.set(id, session);
    if (this.#sessions.size > this.#limit) this.#sessions.delete(this.#sessions.keys().next().value!);
  }
}
