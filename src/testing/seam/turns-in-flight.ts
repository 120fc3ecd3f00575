import { preview } from "../../engine/scripted-model.ts";
import type { SeamCall } from "./seam-call.ts";
import type { SeamTurn } from "./seam-turn.ts";
import { isSubsequence, userInputsOf } from "./user-inputs.ts";

/** Who a turn in flight belongs to, as messages name it. */
export interface TurnOwner {
  readonly label: string;
}

/**
 * The turns in flight at one seam, across its conversations. A turn is let in only once no turn of
 * another conversation with the same input is in flight, so a call always has one turn to go to.
 */
export class TurnsInFlight<Owner extends TurnOwner> {
  readonly #turns = new Map<SeamTurn, Owner>();
  /** Problems of calls made while no turn was in flight, for the next turn let in to fail with. */
  readonly #between: string[] = [];

  /** Waits for every other conversation's turn with the same input to end, then lets `turn` in. */
  async admit(turn: SeamTurn, owner: Owner): Promise<void> {
    for (;;) {
      const busy = [...this.#turns].find(([other, by]) => by !== owner && other.key === turn.key);
      // Checked and set in one step, with no await between, so two waiters never both get in.
      if (!busy) {
        this.#turns.set(turn, owner);
        for (const problem of this.#between.splice(0)) turn.fail(`before this turn, ${problem}`);
        return;
      }
      await busy[0].ended;
    }
  }

  release(turn: SeamTurn): void {
    this.#turns.delete(turn);
    turn.end();
  }

  /**
   * The turn a call belongs to: the one whose input is the call's last user message, and whose
   * conversation's earlier inputs hold the call's earlier user messages in order.
   */
  creditedWith(call: SeamCall): { turn: SeamTurn; owner: Owner } | undefined {
    const { last, earlier } = userInputsOf(call.request.messages);
    for (const [turn, owner] of this.#turns)
      if (turn.key === last && isSubsequence(earlier, turn.earlier)) return { turn, owner };
    return undefined;
  }

  /**
   * Fails every turn in flight with a problem of the seam's (a call none of them could be credited
   * with), so the run fails where it happened; with none in flight, the next turn let in.
   */
  failAll(problem: string): void {
    if (this.#turns.size === 0) this.#between.push(problem);
    for (const turn of this.#turns.keys()) turn.fail(problem);
  }

  /** The turns in flight, as a message lists them. */
  described(): string {
    const turns = [...this.#turns].map(
      ([turn, owner]) => `${owner.label} turn ${turn.number} "${turn.label}" (input "${preview(turn.input, 60)}")`,
    );
    return turns.length === 0 ? "none" : turns.join("; ");
  }
}
