import type { ChatModel, ModelContext } from "./chat-model.ts";
import { Model } from "./model.ts";

/** Decides the chat model for `context`; `make()` gives the one that would be made without it. */
export type ModelWrapper = (context: ModelContext, make: () => ChatModel) => ChatModel;

/**
 * Replaces `Model.prototype.createInstance` with `wrap` around the current one, and returns the
 * function that restores it. Process-wide, like the prototype it patches: restore in the reverse
 * order of installing (restoring twice is harmless; out of order throws).
 */
export function useModelWrapper(wrap: ModelWrapper): () => void {
  const previous = Model.prototype.createInstance;
  const patched = function (this: Model, context: ModelContext): ChatModel {
    return wrap(context, () => previous.call(this, context));
  };
  Model.prototype.createInstance = patched;
  let restored = false;
  return () => {
    if (restored) return;
    if (Model.prototype.createInstance !== patched) {
      throw new Error("Model.prototype.createInstance was patched again after this: restore the patches in the reverse order of installing them.");
    }
    Model.prototype.createInstance = previous;
    restored = true;
  };
}
