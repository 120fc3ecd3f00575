import type OpenAI from "openai";
import type { ChatCompletionMessageParam, ChatCompletionTool } from "openai/resources/chat/completions";
import { FlowcheckError } from "../errors.ts";
import type { ChatModel, ModelContext, ModelReply, ModelRequest } from "./chat-model.ts";
import { providerFailure } from "./provider-failure.ts";
import { redactSecret } from "./redact-secret.ts";
import { shownUrl } from "./shown-url.ts";
import type { MemoryEntry } from "./session-document.ts";

function toOpenAIMessage(entry: MemoryEntry): ChatCompletionMessageParam {
  switch (entry.role) {
    case "user":
      return { role: "user", content: entry.content };
    case "handoff":
      // Not the user's words, and not a tool result of this step's: an instruction to the model.
      return { role: "system", content: handoffText(entry) };
    case "tool":
      return { role: "tool", tool_call_id: entry.toolCallId, content: entry.content };
    case "assistant":
      return entry.toolCalls?.length
        ? {
            role: "assistant",
            content: entry.content || null,
            tool_calls: entry.toolCalls.map((call) => ({
              id: call.id,
              type: "function" as const,
              function: { name: call.name, arguments: call.arguments },
            })),
          }
        : { role: "assistant", content: entry.content };
  }
}

/** How a hand-off reads on the wire: `Hand-off from NameStep: Saved the name Ada.` */
function handoffText(entry: Extract<MemoryEntry, { role: "handoff" }>): string {
  return `Hand-off from ${entry.from}: ${entry.content}`;
}

/** A step's chat model on the OpenAI chat completions API (or any server that speaks it). */
export class OpenAIChatModel implements ChatModel {
  readonly #client: OpenAI;
  readonly #model: string;
  readonly #context: ModelContext;

  constructor(client: OpenAI, model: string, context: ModelContext) {
    this.#client = client;
    this.#model = model;
    this.#context = context;
  }

  async invoke(request: ModelRequest): Promise<ModelReply> {
    const tools: ChatCompletionTool[] = request.tools.map((tool) => ({
      type: "function",
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    }));
    let completion: OpenAI.Chat.Completions.ChatCompletion;
    try {
      completion = await this.#client.chat.completions.create({
        model: this.#model,
        messages: [{ role: "system", content: request.system }, ...request.messages.map(toOpenAIMessage)],
        ...(tools.length ? { tools } : {}),
      });
    } catch (error) {
      throw new FlowcheckError(
        "model_error",
        redactSecret(
          `The model "${this.#model}" failed for ${this.#context.flow}/${this.#context.step}${providerFailure(error)}. ` +
            `The turn was not applied; send the message again, ` +
            `or check that OPENAI_BASE_URL (${shownUrl(this.#client.baseURL)}) reaches the model and OPENAI_API_KEY is valid.`,
          this.#client.apiKey,
        ),
        { cause: error },
      );
    }
    const message = completion.choices[0]?.message;
    if (!message) {
      throw new FlowcheckError(
        "model_error",
        `The model "${this.#model}" answered with no choices. The turn was not applied; send the message again.`,
      );
    }
    return {
      content: message.content ?? "",
      toolCalls: (message.tool_calls ?? []).flatMap((call) =>
        call.type === "function" ? [{ id: call.id, name: call.function.name, arguments: call.function.arguments }] : [],
      ),
    };
  }
}
