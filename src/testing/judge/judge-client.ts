import type OpenAI from "openai";
import { redactSecret } from "../../engine/redact-secret.ts";
import { providerClient, type ProviderSettings } from "../provider/provider-client.ts";

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

/** Which of a verdict's samples a call is (`JUDGE_SAMPLES` above 1): the `index`th of `of`, from 1. */
export interface JudgeSampleOf {
  index: number;
  of: number;
}

/**
 * One call to a judge model. `sample` says which sample of a verdict of several it is, for a
 * cassette to tape; the model is asked the same either way.
 */
export type JudgeClient = (request: JudgeRequest, sample?: JudgeSampleOf) => Promise<JudgeCompletion>;

/** The judge on the OpenAI chat API: temperature 0 and a JSON object answer, for stable verdicts. */
export function openAIJudgeClient(settings: ProviderSettings): JudgeClient {
  const client = providerClient(settings);
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
