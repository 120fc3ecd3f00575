import type OpenAI from "openai";
import { loadOpenAI } from "../../engine/load-openai.ts";
import { redactSecret } from "../../engine/redact-secret.ts";

export interface JudgeRequest {
  model: string;
  system: string;
  user: string;
}

export interface JudgeCompletion {
  content: string;
  usage: { promptTokens: number; completionTokens: number } | undefined;
  /** `replay` when the answer came from a cassette, not a model. */
  source: "live" | "replay";
}

/** One call to a judge model. */
export type JudgeClient = (request: JudgeRequest) => Promise<JudgeCompletion>;

export interface JudgeClientSettings {
  apiKey: string;
  baseURL: string | undefined;
  maxRetries: number;
  timeoutMs: number;
  /** How the SDK sends its requests (the runner's provider limits); default the global `fetch`. */
  fetch?: typeof globalThis.fetch;
}

/** The judge on the OpenAI chat API: temperature 0 and a JSON object answer, for stable verdicts. */
export function openAIJudgeClient(settings: JudgeClientSettings): JudgeClient {
  const client = new (loadOpenAI())({
    apiKey: settings.apiKey,
    baseURL: settings.baseURL,
    maxRetries: settings.maxRetries,
    timeout: settings.timeoutMs,
    ...(settings.fetch ? { fetch: settings.fetch } : {}),
  });
  return async (request) => {
    let completion: OpenAI.Chat.Completions.ChatCompletion;
    try {
      completion = await client.chat.completions.create({
        model: request.model,
        temperature: 0,
        response_format: { type: "json_object" },
        messages: [
          { role: "system", content: request.system },
          { role: "user", content: request.user },
        ],
      });
    } catch (error) {
      // A provider may quote the key it was sent; the message ends up in transcripts and logs.
      throw new Error(redactSecret((error as Error).message, settings.apiKey), { cause: error });
    }
    const usage = completion.usage;
    return {
      content: completion.choices[0]?.message.content ?? "",
      usage: usage ? { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens } : undefined,
      source: "live",
    };
  };
}
