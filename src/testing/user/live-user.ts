import type OpenAI from "openai";
import { providerFailure } from "../../engine/provider-failure.ts";
import { redactSecret } from "../../engine/redact-secret.ts";
import type { UserReply, UserTurnRequest } from "../../engine/scripted-user.ts";
import { shownUrl } from "../../engine/shown-url.ts";
import { FlowcheckError } from "../../errors.ts";
import type { TokenCount } from "../checks/turn-report.ts";
import { providerClient, type ProviderSettings } from "../provider/provider-client.ts";
import { readUserReply } from "./read-user-reply.ts";
import { userPrompt, userRetryPrompt, type UserPromptMessage } from "./user-prompt.ts";
import type { UserSimulator, UserTurn } from "./user-simulator.ts";

export interface LiveUserSettings extends ProviderSettings {
  model: string;
}

// Not 0, as the judge has: a user who words the same request the same way on every run tests one
// conversation over and over; some spread is what --repeat is there to sample. Not 1 either: the
// persona, its facts and the JSON form must hold on every reply.
const TEMPERATURE = 0.7;

/**
 * A simulated user played by a model on the OpenAI chat API. An answer that cannot be used gets
 * one retry that says what was wrong with it; a second one fails the conversation, quoting it.
 */
export function liveUser(settings: LiveUserSettings): UserSimulator {
  const client = providerClient(settings);
  // `tokens` is the one turn's count: turns in flight at once never share one.
  async function complete(messages: UserPromptMessage[], tokens: TokenCount): Promise<string> {
    let completion: OpenAI.Chat.Completions.ChatCompletion;
    try {
      completion = await client.chat.completions.create({
        model: settings.model,
        temperature: TEMPERATURE,
        response_format: { type: "json_object" },
        messages,
      });
    } catch (error) {
      // A provider may quote the key it was sent; the message ends up in transcripts and reports.
      throw new FlowcheckError(
        "user_model_failed",
        redactSecret(
          `The model "${settings.model}" playing the simulated user failed${providerFailure(error)}. ` +
            `Check that USER_BASE_URL, else OPENAI_BASE_URL (${shownUrl(client.baseURL)}), reaches the model ` +
            `and that its key (USER_API_KEY, else OPENAI_API_KEY) is valid.`,
          settings.apiKey,
        ),
        { cause: error },
      );
    }
    if (completion.usage) {
      tokens.input += completion.usage.prompt_tokens;
      tokens.output += completion.usage.completion_tokens;
    }
    return completion.choices[0]?.message.content ?? "";
  }

  async function reply(request: UserTurnRequest, tokens: TokenCount): Promise<UserReply> {
    const messages = userPrompt(request);
    const first = await complete(messages, tokens);
    const read = readUserReply(first);
    if ("reply" in read) return read.reply;
    const second = await complete(userRetryPrompt(messages, first, read.problem), tokens);
    const again = readUserReply(second);
    if ("reply" in again) return again.reply;
    throw new FlowcheckError(
      "user_model_failed",
      `The model "${settings.model}" playing the simulated user answered badly twice for message ${request.turn}: ` +
        `first ${read.problem} Then, told so, ${again.problem} ` +
        `Try another USER_MODEL, or one that supports response_format json_object.`,
    );
  }

  return {
    player: `live ${settings.model}`,
    async next(request) {
      const tokens: TokenCount = { input: 0, output: 0 };
      const answer = await reply(request, tokens);
      const turn: UserTurn = { ...answer };
      if (tokens.input || tokens.output) turn.tokens = { ...tokens };
      return turn;
    },
  };
}
