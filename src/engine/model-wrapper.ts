import type { ChatModel, ModelContext } from "./chat-model.ts";
import { Model } from "./model.ts";

/** Decides the chat model for `context`; `make()` gives the one that would be made without it. */
export type ModelWrapper = (context: ModelContext, make: () => ChatModel) => ChatModel;

interface Installed {
  wrap: ModelWrapper;
  /** Only this Model instance is wrapped; all of them when undefined. */
  model: Model | undefined;
}

const installed: Installed[] = [];
let original: Model["createInstance"] | undefined;

function dispatch(this: Model, context: ModelContext): ChatModel {
  const base = original!;
  // The first installed wrapper is the innermost, as if each had patched the method in turn.
  const make = installed.reduce<() => ChatModel>(
    (inner, { wrap, model }) => (model === undefined || model === this ? () => wrap(context, inner) : inner),
    () => base.call(this, context),
  );
  return make();
}

/**
 * Wraps `Model.prototype.createInstance` with `wrap`, for every Model or for `options.model` alone
 * (an app wraps its own, so two apps in one process do not see each other's models). Returns the
 * function that removes the wrapper; wrappers can be removed in any order, and twice is harmless.
 */
export function useModelWrapper(wrap: ModelWrapper, options: { model?: Model } = {}): () => void {
  if (installed.length === 0) {
    original = Model.prototype.createInstance;
    Model.prototype.createInstance = dispatch;
  }
  const entry: Installed = { wrap, model: options.model };
  installed.push(entry);
  return () => {
    const index = installed.indexOf(entry);
    if (index === -1) return;
    installed.splice(index, 1);
    if (installed.length === 0) {
      Model.prototype.createInstance = original!;
      original = undefined;
    }
  };
}
