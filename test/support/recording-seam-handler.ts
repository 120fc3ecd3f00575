import type { ModelReply } from "../../src/engine/chat-model.ts";
import type { SeamCall, SeamHandler, SeamOutcome } from "../../src/testing/seam/seam-call.ts";

/** A handler that answers each call with the next of `outcomes` and keeps every call it was asked. */
export interface RecordingHandler extends SeamHandler {
  readonly calls: SeamCall[];
}

export function recordingHandler(...outcomes: SeamOutcome[]): RecordingHandler {
  const calls: SeamCall[] = [];
  return {
    calls,
    answer: async (call) => {
      calls.push(call);
      const outcome = outcomes.shift();
      if (outcome === undefined) throw new Error(`no outcome left for call ${calls.length}`);
      return outcome;
    },
  };
}

export function text(content: string): ModelReply {
  return { content, toolCalls: [] };
}

export function toolCall(id: string, name: string, args: object): ModelReply {
  return { content: "", toolCalls: [{ id, name, arguments: JSON.stringify(args) }] };
}
