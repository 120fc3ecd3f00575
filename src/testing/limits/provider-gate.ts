import type { Config } from "../../config.ts";
import type { RunLimits } from "./run-limits.ts";
import { UsageMeter, type CallKind } from "./usage-meter.ts";

type Fetch = typeof globalThis.fetch;

/** Seconds or an HTTP date, as `Retry-After` may say; undefined when it says neither. */
function retryAfterMillis(value: string | null): number | undefined {
  if (value === null) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** The provider's `usage`, read from a copy so the SDK still reads the body. */
async function usageOf(response: Response): Promise<{ input: number; output: number } | undefined> {
  if (!response.ok || !response.headers.get("content-type")?.includes("json")) return undefined;
  try {
    const body = (await response.clone().json()) as {
      usage?: { prompt_tokens?: number; completion_tokens?: number; input_tokens?: number; output_tokens?: number };
    };
    const usage = body.usage;
    if (!usage) return undefined;
    // Chat Completions counts prompt and completion tokens, the Responses API input and output tokens.
    return {
      input: usage.prompt_tokens ?? usage.input_tokens ?? 0,
      output: usage.completion_tokens ?? usage.output_tokens ?? 0,
    };
  } catch {
    return undefined;
  }
}

/**
 * The way one conversation's model, judge and simulated-user calls reach their provider (the OpenAI SDK's
 * `fetch`): each request waits for a slot of its provider (`OPENAI_MAX_INFLIGHT`,
 * `OPENAI_MAX_RPM`), a 429's `Retry-After` pauses every conversation's requests to that provider,
 * and the tokens each answer used are counted for the turn and against the run's budget. The SDK
 * still retries on its own; its retries are counted by their `x-stainless-retry-count` header.
 */
export class ProviderGate {
  readonly usage = new UsageMeter();
  readonly #config: Config;
  readonly #scenario: string;
  readonly #limits: RunLimits;

  /**
   * `scenario` names the conversation in the run's token summary, e.g. `BasicFlow: basic-flow`;
   * `limits` are the run's (`runLimits`), counted in its summary or not.
   */
  constructor(config: Config, scenario: string, limits: RunLimits) {
    this.#config = config;
    this.#scenario = scenario;
    this.#limits = limits;
  }

  fetchFor(kind: CallKind): Fetch {
    return async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const key = url.origin;
      const retry = Number(new Headers(init?.headers).get("x-stainless-retry-count") ?? "0") > 0;
      const { maxInflight, maxRpm } = this.#config.limits;
      const held = await this.#limits.hold(
        { kind: "request", key, limit: maxInflight, rpm: maxRpm, retry },
        init?.signal,
      );
      try {
        const response = await globalThis.fetch(input, init);
        const pause = response.status === 429 ? retryAfterMillis(response.headers.get("retry-after")) : undefined;
        if (pause !== undefined) await this.#limits.note({ kind: "pause", key, millis: pause });
        const usage = await usageOf(response);
        if (usage) {
          this.usage.add(kind, usage);
          await this.#limits.note({
            kind: "tokens",
            scenario: this.#scenario,
            ...usage,
            price: this.#config.limits.price,
          });
        }
        return response;
      } finally {
        held.release();
      }
    };
  }
}
