import type OpenAI from "openai";
import { loadOpenAI } from "../../engine/load-openai.ts";

/** How the tester reaches a provider for its own calls (the judge, a simulated user). */
export interface ProviderSettings {
  apiKey: string;
  baseURL: string | undefined;
  maxRetries: number;
  timeoutMs: number;
  /** How the SDK sends its requests (the run's provider gate); default the global `fetch`. */
  fetch?: typeof globalThis.fetch;
}

/** The OpenAI SDK's client for `settings`. */
export function providerClient(settings: ProviderSettings): OpenAI {
  return new (loadOpenAI())({
    apiKey: settings.apiKey,
    baseURL: settings.baseURL,
    maxRetries: settings.maxRetries,
    timeout: settings.timeoutMs,
    ...(settings.fetch ? { fetch: settings.fetch } : {}),
  });
}
