import { setTimeout as sleep } from "node:timers/promises";
import type { ChatModel, ModelReply, ModelRequest } from "../../engine/chat-model.ts";
import type { ModelWrapper } from "../../engine/model-factory.ts";
import type { ModelFault } from "../scenario/scenario.ts";
import { malformedToolCall } from "../seam/malformed-tool-call.ts";
import { truncatedReply } from "../seam/truncated-reply.ts";

const DEFAULT_HOLD_MS = 2_000;

/**
 * Makes one model call of a turn go wrong, as a provider would: armed with a turn's fault, it counts
 * that turn's calls and answers the Nth as the fault's kind says. Disarmed, it only passes calls on.
 *
 * Our engine's model has no HTTP under it, so the kinds are what reaches the engine: `error`,
 * `rate-limit` and `timeout` (after `holdMs`) reject the call, which the engine answers with 502
 * `model_error`; `malformed-tool-call` and `truncated` change the inner model's reply (see
 * `malformedToolCall`, `truncatedReply`: the same as at the seam).
 */
export class ModelFaults {
  #fault: ModelFault | undefined;
  #calls = 0;

  /** The wrapper to give the app (`AppOptions.wrapModel`). */
  readonly wrap: ModelWrapper = (_context, make): ChatModel => {
    const inner = make();
    return {
      invoke: (request) => {
        const fault = this.#fault;
        if (fault === undefined) return inner.invoke(request);
        this.#calls++;
        if (this.#calls !== fault.call) return inner.invoke(request);
        return faulty(fault, this.#calls, request, inner);
      },
    };
  };

  /** Answers the `fault.call`th model call from now on (1 is the next one) as `fault.kind` says. */
  arm(fault: ModelFault): void {
    this.#fault = fault;
    this.#calls = 0;
  }

  /** Stops the fault; returns how many calls were made while armed. */
  disarm(): number {
    this.#fault = undefined;
    return this.#calls;
  }
}

async function faulty(fault: ModelFault, call: number, request: ModelRequest, inner: ChatModel): Promise<ModelReply> {
  const asked = `as the scenario's "${fault.kind}" fault asks`;
  switch (fault.kind) {
    case "error":
      throw new Error(`flowcheck made model call ${call} of this turn fail with a provider's error, ${asked}`);
    case "rate-limit":
      throw new Error(
        `flowcheck made model call ${call} of this turn fail with a provider's rate limit (429), ${asked}`,
      );
    case "timeout": {
      const held = fault.holdMs ?? DEFAULT_HOLD_MS;
      await sleep(held);
      throw new Error(`flowcheck held model call ${call} of this turn ${held} ms and reset its connection, ${asked}`);
    }
    case "malformed-tool-call": {
      const reply = malformedToolCall(await inner.invoke(request), request.tools);
      if (reply) return reply;
      throw new Error(
        `model call ${call} of this turn offers the model no tools, so the scenario's "malformed-tool-call" fault ` +
          "has no tool call to break; put the fault on a call whose step has tools",
      );
    }
    case "truncated":
      return truncatedReply(await inner.invoke(request));
  }
}
