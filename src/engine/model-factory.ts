import type { ChatModel, ModelContext } from "./chat-model.ts";

/**
 * The model seam: how the engine gets the chat model of each step it runs. The app that builds the
 * engine composes it once, from the modes it plans, and hands it to `FlowEngine`; nothing patches
 * it afterwards, so two apps in one process never see each other's models.
 */
export type ModelFactory = (context: ModelContext) => ChatModel;

/**
 * One layer of a `ModelFactory`: decides the chat model for `context`; `make()` gives the one the
 * layers under it would make, and is called only when wanted (a replayed or scripted call must not
 * build a live client).
 */
export type ModelWrapper = (context: ModelContext, make: () => ChatModel) => ChatModel;

/**
 * `inner` with `wrap` around it, outermost: `wrap` is asked first for every context.
 *
 * @example
 * const models = wrapModels(liveModel(settings), scriptedModel(scripts)); // scripted flows first, live for the rest
 */
export function wrapModels(inner: ModelFactory, wrap: ModelWrapper): ModelFactory {
  return (context) => wrap(context, () => inner(context));
}
