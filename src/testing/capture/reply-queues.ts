import { FlowcheckError } from "../../errors.ts";
import type { ModelReply } from "../../engine/chat-model.ts";
import type { ModelWrapper } from "../../engine/model-factory.ts";

/** A model call's reply and where it was made: `BasicFlow/NameStep`. */
export interface TakenReply {
  where: string;
  reply: ModelReply;
}

/**
 * The replies each step's model gave, in order, by `Flow/Step`. Kept per step rather than as one
 * list because a stored session keeps its memory per step, so the order across steps is not stored.
 */
export type ReplyQueues = Map<string, ModelReply[]>;

export function whereOf(flow: string, step: string): string {
  return `${flow}/${step}`;
}

export function replyQueuesOf(calls: readonly TakenReply[]): ReplyQueues {
  const queues: ReplyQueues = new Map();
  for (const { where, reply } of calls) queues.set(where, [...(queues.get(where) ?? []), reply]);
  return queues;
}

/** The next reply queued for `where`; none left means the flow no longer plays the conversation as it was held. */
export function takeReply(queues: ReplyQueues, where: string, source: string): ModelReply {
  const reply = queues.get(where)?.shift();
  if (!reply) {
    throw new FlowcheckError(
      "capture_diverged",
      `Replaying ${source}: ${where} asked its model once more than it did in the conversation, ` +
        `so the flow has changed since it was held. Hold the conversation again on the current flow.`,
    );
  }
  return reply;
}

/** The model of every flow: each call answered with the next reply queued for its step. */
export function queuedRepliesModel(queues: ReplyQueues, source: string): ModelWrapper {
  return (context) => ({ invoke: async () => takeReply(queues, whereOf(context.flow, context.step), source) });
}

/** The steps with queued replies that no call asked for, and how many each. */
export function leftoverReplies(queues: ReplyQueues): string[] {
  return [...queues]
    .filter(([, replies]) => replies.length > 0)
    .map(([where, replies]) => `${where} (${replies.length})`);
}
