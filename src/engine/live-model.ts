import type OpenAI from "openai";
import { loadOpenAI } from "./load-openai.ts";
import type { ModelFactory } from "./model-factory.ts";
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

/** The live model: every step's chat model talks to the OpenAI API (or a server compatible with it). */
export function liveModel(settings: ModelSettings): ModelFactory {
  const frozen = Object.freeze({ ...settings });
  let client: OpenAI | undefined;
  return (context) => {
    // Made on first use: an app whose calls are all scripted or replayed never builds a client.
    client ??= new (loadOpenAI())({
      apiKey: frozen.apiKey,
      baseURL: frozen.baseURL,
      maxRetries: frozen.maxRetries,
      timeout: frozen.timeoutMs,
      ...(frozen.fetch ? { fetch: frozen.fetch } : {}),
    });
    return new OpenAIChatModel(client, frozen.model, context);
  };
}
