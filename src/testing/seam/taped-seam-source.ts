import { FlowcheckError } from "../../errors.ts";
import type { Cassette } from "../cassette/cassette.ts";
import type { SeamSource } from "./seam-call.ts";

/**
 * A conversation's model calls at the seam of `target`, on its cassette: recording asks `live`
 * (the provider) and tapes each call under the turn in flight; replaying answers from the tape in
 * order, making no request, and a request that differs from the recording fails with
 * `cassette_mismatch` naming the turn, the target and the first difference. What is taped is the
 * request as scripts read it (the model the app named, system, tools, messages), so a change of
 * SDK that sends the same conversation still replays.
 */
export function tapedSeamSource(cassette: Cassette, target: string, live?: SeamSource): SeamSource {
  if (cassette.mode === "record" && !live) {
    throw new FlowcheckError(
      "cassette_mismatch",
      `Recording the model calls of target ${target} needs the live provider; set OPENAI_API_KEY.`,
    );
  }
  return (request, call) =>
    cassette.seamCall(
      { target, api: request.context.api },
      { model: request.context.model, system: request.system, tools: request.tools, messages: request.messages },
      live && (() => live(request, call)),
    );
}
