import type { RunEvent } from "./run-event.ts";

/** One reader's own queue of the run's events: a slow reader is handed every event, late. */
class EventQueue implements AsyncIterableIterator<RunEvent> {
  readonly #events: RunEvent[] = [];
  readonly #leave: (queue: EventQueue) => void;
  #waiting: ((result: IteratorResult<RunEvent>) => void) | undefined;
  #closed = false;

  constructor(leave: (queue: EventQueue) => void) {
    this.#leave = leave;
  }

  push(event: RunEvent): void {
    const waiting = this.#waiting;
    this.#waiting = undefined;
    if (waiting) waiting({ value: event, done: false });
    else this.#events.push(event);
  }

  close(): void {
    this.#closed = true;
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.({ value: undefined, done: true });
  }

  next(): Promise<IteratorResult<RunEvent>> {
    const event = this.#events.shift();
    if (event) return Promise.resolve({ value: event, done: false });
    if (this.#closed) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.#waiting = resolve));
  }

  /** A reader that stops early (a `break`, a throw) leaves, and is kept no more events. */
  return(): Promise<IteratorResult<RunEvent>> {
    this.#events.length = 0;
    this.#leave(this);
    this.close();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<RunEvent> {
    return this;
  }
}

/**
 * The run's events, each handed to every reader (a multiplexer): each reader iterates a queue of
 * its own, from the moment it asked for one, so none waits for another or loses an event.
 */
export class RunEventStream {
  readonly #readers = new Set<EventQueue>();
  #ended = false;

  /** A reader's own iterable of every event from now on, ending when the run does. */
  reader(): AsyncIterableIterator<RunEvent> {
    const queue = new EventQueue((leaving) => this.#readers.delete(leaving));
    if (this.#ended) queue.close();
    else this.#readers.add(queue);
    return queue;
  }

  push(event: RunEvent): void {
    for (const reader of this.#readers) reader.push(event);
  }

  end(): void {
    this.#ended = true;
    for (const reader of this.#readers) reader.close();
    this.#readers.clear();
  }
}
