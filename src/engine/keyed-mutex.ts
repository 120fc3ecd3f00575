import { onSettled } from "./on-settled.ts";

/** Runs tasks that share a key one after another, in arrival order; other keys run freely. */
export class KeyedMutex {
  // A key is here while one of its tasks runs, with the tasks waiting behind it; an idle key is
  // dropped, so the map does not grow with every session ever seen.
  readonly #waiting = new Map<string, (() => void)[]>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const queue = this.#waiting.get(key);
    const release = () => {
      const next = this.#waiting.get(key)!.shift();
      if (next) next();
      else this.#waiting.delete(key);
    };
    const released = (result: Promise<T>) => onSettled(result, release);
    if (queue) return released(new Promise<void>((start) => queue.push(start)).then(task));
    // A task that finds its key idle starts at once: one promise more than its own, not a chain.
    this.#waiting.set(key, []);
    let running: Promise<T>;
    try {
      running = task();
    } catch (error) {
      release();
      return Promise.reject(error);
    }
    return released(running);
  }
}
