import type { ChatModel } from "../../engine/chat-model.ts";
import type { ModelWrapper } from "../../engine/model-factory.ts";

/**
 * Makes one model call of a turn fail, as a provider's error would: armed for the Nth call of the
 * next turn, it counts that turn's calls and throws at the Nth. Disarmed, it only passes calls on.
 */
export class ModelFaults {
  #failAt: number | undefined;
  #calls = 0;

  /** The wrapper to give the app (`AppOptions.wrapModel`). */
  readonly wrap: ModelWrapper = (_context, make): ChatModel => {
    const inner = make();
    return {
      invoke: (request) => {
        if (this.#failAt === undefined) return inner.invoke(request);
        this.#calls++;
        if (this.#calls !== this.#failAt) return inner.invoke(request);
        return Promise.reject(
          new Error(`flowcheck made model call ${this.#calls} of this turn fail, as the scenario's failModelCall asks`),
        );
      },
    };
  };

  /** Fails the `call`th model call from now on (1 is the next one). */
  arm(call: number): void {
    this.#failAt = call;
    this.#calls = 0;
  }

  /** Stops failing calls; returns how many calls were made while armed. */
  disarm(): number {
    this.#failAt = undefined;
    return this.#calls;
  }
}
