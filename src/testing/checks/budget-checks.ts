import { check, skipped, type Check } from "./check.ts";
import type { TokenCount } from "./turn-report.ts";

/** Dollars per million tokens, each direction, as `FLOW_PRICE_PER_MTOK_IN`/`_OUT` set them. */
export interface TokenPrice {
  input: number;
  output: number;
}

/** The cost of `tokens` at `price`, in dollars. */
export function tokenCost(tokens: TokenCount, price: TokenPrice): number {
  return (tokens.input * price.input + tokens.output * price.output) / 1e6;
}

/** `maxLatencyMs`: the turn's HTTP time, from sending it to the answer's last byte. */
export function latencyCheck(where: string, maxLatencyMs: number, millis: number): Check {
  return check(
    "expectation",
    "maxLatencyMs",
    millis <= maxLatencyMs
      ? undefined
      : `${where} took ${Math.round(millis)} ms over HTTP; maxLatencyMs allows ${maxLatencyMs}`,
  );
}

const NO_TOKENS = "no token counts are known: the flow's model reported no usage (a scripted model uses none)";

/** `maxTokens` and `maxCostUsd` on what `where`'s model calls used (input + output), when counts are known. */
export function tokenChecks(
  where: string,
  limits: { maxTokens?: number; maxCostUsd?: number },
  tokens: TokenCount | undefined,
  price: TokenPrice | undefined,
): Check[] {
  const checks: Check[] = [];
  if (limits.maxTokens !== undefined) {
    const used = tokens && tokens.input + tokens.output;
    checks.push(
      used === undefined
        ? skipped("expectation", "maxTokens", NO_TOKENS)
        : check(
            "expectation",
            "maxTokens",
            used <= limits.maxTokens
              ? undefined
              : `the model calls of ${where} used ${used} tokens (${tokens!.input} in, ${tokens!.output} out); maxTokens allows ${limits.maxTokens}`,
          ),
    );
  }
  if (limits.maxCostUsd !== undefined) {
    const cost = tokens && price && tokenCost(tokens, price);
    checks.push(
      cost === undefined
        ? skipped(
            "expectation",
            "maxCostUsd",
            tokens ? "no prices are set: set FLOW_PRICE_PER_MTOK_IN and FLOW_PRICE_PER_MTOK_OUT" : NO_TOKENS,
          )
        : check(
            "expectation",
            "maxCostUsd",
            cost <= limits.maxCostUsd
              ? undefined
              : `the model calls of ${where} cost an estimated $${cost.toFixed(6)}; maxCostUsd allows $${limits.maxCostUsd}`,
          ),
    );
  }
  return checks;
}
