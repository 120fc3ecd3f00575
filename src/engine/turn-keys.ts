import { FlowcheckError, isFlowcheckError } from "../errors.ts";
import { onSettled } from "./on-settled.ts";
import type { KeptAnswer } from "./session-document.ts";
import type { SessionStore } from "./session-store.ts";

/** A client's name for one turn (an HTTP `Idempotency-Key`), and how its kept answer is given again. */
export interface TurnKey<A> {
  value: string;
  /** The answer kept by the first request under this key, as the caller sends it again. */
  replay(kept: unknown): A;
}

/** What a keyed turn's write keeps, but the answer: where the key is scoped, the key, the request. */
export type KeptKey = Omit<KeptAnswer, "answer">;

/**
 * What a request asks, as the text a later request under its key is compared with. The text itself
 * rather than a digest: it is usually shorter than one, and costs no hashing on every turn.
 */
function requestOf(request: { flow?: string; message: string }): string {
  return JSON.stringify([request.flow ?? null, request.message]);
}

function where(kept: KeptKey): string {
  return kept.scope === "" ? " (for a first turn)" : ` on session "${kept.scope}"`;
}

/**
 * Applies each keyed turn once. A key is scoped to the session the request names, or for a request
 * that starts a session, to the key alone. The answer is kept by the turn's own write (`apply` puts
 * it there), so it outlives a client that gave up waiting and a server killed right after the commit.
 */
export class TurnKeys {
  readonly #store: SessionStore;
  /** The scopes and keys of the turns running in this process. */
  readonly #running = new Set<string>();

  constructor(store: SessionStore) {
    this.#store = store;
  }

  // Promise chains rather than async functions: the runner sends every turn with a key, and each
  // async layer is a promise more per turn.
  once<A>(
    request: { session?: string; flow?: string; message: string },
    key: TurnKey<A>,
    apply: (kept: KeptKey) => Promise<A>,
  ): Promise<A> {
    const kept: KeptKey = { scope: request.session ?? "", key: key.value, request: requestOf(request) };
    const running = `${kept.scope} ${kept.key}`;
    if (this.#running.has(running)) {
      return Promise.reject(
        new FlowcheckError(
          "idempotency_key_in_flight",
          `A request under the Idempotency-Key "${kept.key}"${where(kept)} is still running; ` +
            `wait for its answer, or send this one again once it has come.`,
        ),
      );
    }
    this.#running.add(running);
    const answered = this.#earlier(kept).then((earlier) =>
      earlier === undefined
        ? apply(kept).catch((error: unknown) => this.#afterLosing(error, kept, key))
        : key.replay(earlier.answer),
    );
    return onSettled(answered, () => this.#running.delete(running));
  }

  /** Another process applied the same keyed turn first, and its save won: its answer is the one to give. */
  #afterLosing<A>(error: unknown, kept: KeptKey, key: TurnKey<A>): Promise<A> {
    if (!isFlowcheckError(error, "session_conflict")) return Promise.reject(error);
    return this.#earlier(kept).then((won) => {
      if (won === undefined) throw error;
      return key.replay(won.answer);
    });
  }

  #earlier(kept: KeptKey): Promise<KeptAnswer | undefined> {
    return this.#store.fetchAnswer(kept.scope, kept.key).then((earlier) => {
      if (earlier !== undefined && earlier.request !== kept.request) {
        throw new FlowcheckError(
          "idempotency_key_reused",
          `The Idempotency-Key "${kept.key}"${where(kept)} was used for another request (another flow or message), which was applied. ` +
            "Send a new key with each new turn, and the same key only with the same request again.",
        );
      }
      return earlier;
    });
  }
}
