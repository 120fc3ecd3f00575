/**
 * How far a conversation's play may go, counted in steps (its turns, then its simulated user, then
 * its final state): every step, or as far as someone has asked so far, until `stop()` says nobody
 * will ask again. A name filter leaves some tests unrun; their suite asks only for the steps of the
 * tests that ran, so the steps before them are played and those after the last are not.
 */
export class PlayReach {
  #upTo: number;
  #stopped = false;
  #waiting: { step: number; go: (reached: boolean) => void }[] = [];

  /** `upTo`: the last step the play may reach before anyone asks (-1: none; Infinity: every step). */
  constructor(upTo: number) {
    this.#upTo = upTo;
  }

  /** Whether the play may reach `step`. */
  wants(step: number): boolean {
    return step <= this.#upTo;
  }

  /** Lets the play reach `step` (and every step before it). */
  want(step: number): void {
    if (step <= this.#upTo) return;
    this.#upTo = step;
    this.#wake();
  }

  /** Nobody will ask for another step: a play waiting for one stops there. */
  stop(): void {
    this.#stopped = true;
    this.#wake();
  }

  /** Resolves true once the play may reach `step`, false once it never will. */
  until(step: number): Promise<boolean> {
    if (this.wants(step)) return Promise.resolve(true);
    if (this.#stopped) return Promise.resolve(false);
    return new Promise((go) => this.#waiting.push({ step, go }));
  }

  #wake(): void {
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const each of waiting) {
      if (this.wants(each.step)) each.go(true);
      else if (this.#stopped) each.go(false);
      else this.#waiting.push(each);
    }
  }
}
