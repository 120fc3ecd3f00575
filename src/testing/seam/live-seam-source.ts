import { FlowcheckError } from "../../errors.ts";
import { redactSecret } from "../../engine/redact-secret.ts";
import type { SeamCall, SeamSource } from "./seam-call.ts";
import { providerAnswer } from "./provider-answer.ts";

/** Where the OpenAI SDK sends its calls when OPENAI_BASE_URL is not set. */
const OPENAI_API = "https://api.openai.com/v1";

export interface LiveSeamOptions {
  /** The run's OPENAI_BASE_URL; the OpenAI API when it is not set. */
  readonly baseUrl: string | undefined;
  /** The run's OPENAI_API_KEY: it goes to the provider alone, never to the app. */
  readonly apiKey: string;
  /** The conversation's `ProviderGate.fetchFor("model")`, so the run's limits and budget count each call. */
  readonly fetch: typeof globalThis.fetch;
  /** OPENAI_TIMEOUT_MS. */
  readonly timeoutMs: number;
}

/** The app's body, its own streaming dropped: the seam streams the reply to the app itself. */
function forwardedBody(call: SeamCall): string {
  const { stream: _stream, stream_options: _options, ...body } = call.body as Record<string, unknown>;
  return JSON.stringify(body);
}

/** The provider's own words for a failed call: its error's message, or the start of what it sent. */
async function providerMessage(response: Response): Promise<string> {
  const text = await response.text();
  try {
    const message = (JSON.parse(text) as { error?: { message?: unknown } }).error?.message;
    if (typeof message === "string") return message;
  } catch {
    // Not JSON (a proxy's page, say): its text is what there is to quote.
  }
  return text.slice(0, 300) || "(no body)";
}

const ADVICE =
  "Check OPENAI_API_KEY, OPENAI_BASE_URL and the model the app names, or play the scenario with FLOW_MODEL=scripted.";

async function post(url: string, call: SeamCall, options: LiveSeamOptions): Promise<Response> {
  try {
    return await options.fetch(url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${options.apiKey}`,
        "content-type": "application/json",
        accept: "application/json",
      },
      body: forwardedBody(call),
      signal: AbortSignal.timeout(options.timeoutMs),
    });
  } catch (error) {
    const cause =
      (error as Error).name === "TimeoutError"
        ? `no answer within ${options.timeoutMs} ms (OPENAI_TIMEOUT_MS)`
        : (error as Error).message;
    throw new FlowcheckError(
      "model_error",
      redactSecret(
        `The model call of the app (POST ${url}) could not reach the provider: ${cause}. ${ADVICE}`,
        options.apiKey,
      ),
      { cause: error },
    );
  }
}

/**
 * The live provider behind the seam (FLOW_MODEL=live, and recording): each call the app made goes
 * to the provider at the same API (`/chat/completions` or `/responses` under the run's base URL),
 * with the run's key, not streamed, and the provider's answer comes back as the reply and its
 * usage. A provider's failure is `model_error` naming its status and message, the key redacted.
 */
export function liveSeamSource(options: LiveSeamOptions): SeamSource {
  const base = (options.baseUrl ?? OPENAI_API).replace(/\/+$/, "");
  return async (_request, call) => {
    const url = `${base}/${call.api === "chat" ? "chat/completions" : "responses"}`;
    const response = await post(url, call, options);
    if (!response.ok) {
      const message = await providerMessage(response);
      throw new FlowcheckError(
        "model_error",
        redactSecret(
          `The provider answered ${response.status} to the app's model call (POST ${url}): ${JSON.stringify(message)}. ${ADVICE}`,
          options.apiKey,
        ),
      );
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch (error) {
      throw new FlowcheckError(
        "model_error",
        `The provider's answer to the app's model call (POST ${url}) is not JSON: ${(error as Error).message}. ${ADVICE}`,
      );
    }
    return providerAnswer(call.api, body);
  };
}
