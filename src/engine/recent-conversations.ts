import type { ExecutionEntry, MemoryEntry } from "./session-document.ts";

/** What a turn needs besides the session's head: the conversation so far. */
export interface Conversation {
  /** The turn count the conversation was saved at. */
  turns: number;
  memory: Record<string, MemoryEntry[]>;
  execution: ExecutionEntry[];
}

/**
 * The conversations this process saved last, so that a turn re-reads only the session's small head
 * instead of the whole conversation, whose cost grows with every turn. One is used only while the
 * stored turn count is the one it was saved at: a turn saved by another process in between means a
 * whole read. A turn takes its conversation out while it runs, since it appends to it in place, so
 * a turn that fails leaves nothing half-applied behind. The least recently saved go first.
 */
export class RecentConversations {
  readonly #limit: number;
  readonly #conversations = new Map<string, Conversation>();

  constructor(limit: number) {
    this.#limit = limit;
  }

  get size(): number {
    return this.#conversations.size;
  }

  /** The conversation of session `id` as saved at `turns`, removed from here; undefined when it is not. */
  take(id: string, turns: number): Conversation | undefined {
    const conversation = this.#conversations.get(id);
    if (conversation === undefined) return undefined;
    this.#conversations.delete(id);
    return conversation.turns === turns ? conversation : undefined;
  }

  keep(id: string, conversation: Conversation): void {
    this.#conversations.delete(id);
    this.#conversations.set(id, conversation);
    if (this.#conversations.size > this.#limit) this.#conversations.delete(this.#conversations.keys().next().value!);
  }
}
