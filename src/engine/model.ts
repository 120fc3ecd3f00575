import type OpenAI from "openai";
import type { ChatModel, ModelContext } from "./chat-model.ts";
import { loadOpenAI } from "./load-openai.ts";
import { OpenAIChatModel } from "./openai-chat-model.ts";

export interface ModelSettings {
  apiKey: string | undefined;
  /** Any OpenAI-compatible server, e.g. a local one; the SDK's default when unset. */
  baseURL: string | undefined;
  /** The chat model's name, e.g. `gpt-4o-mini`. */
  model: string;
  maxRetries: number;
  timeoutMs: number;
  /** How the SDK sends its requests; the global `fetch` when unset (the runner's limits wrap it). */
  fetch?: typeof globalThis.fetch;
}

/**
 * The model seam: every step gets its chat model from `createInstance`. The default talks to the
 * OpenAI API; `useScriptedModel` swaps this method for a deterministic one.
 */
export class Model {
  readonly settings: Readonly<ModelSettings>;
  #client: OpenAI | undefined;

  constructor(settings: ModelSettings) {
    this.settings = Object.freeze({ ...settings });
  }

  createInstance(context: ModelContext): ChatModel {
    // Made on first use: a scripted run never builds a client, so it can never reach the network.
    this.#client ??= new (loadOpenAI())({
      apiKey: this.settings.apiKey,
      baseURL: this.settings.baseURL,
      maxRetries: this.settings.maxRetries,
      timeout: this.settings.timeoutMs,
      ...(this.settings.fetch ? { fetch: this.settings.fetch } : {}),
    });
    return new OpenAIChatModel(this.#client, this.settings.model, context);
  }
}
