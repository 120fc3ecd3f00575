import { tokenCost } from "../checks/budget-checks.ts";
import type { ArbiterSummary } from "./run-arbiter.ts";

const counted = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
const shown = (tokens: { input: number; output: number }) =>
  `${tokens.input + tokens.output} (${tokens.input} in, ${tokens.output} out)`;

/** What a run took of its providers, for the end of its output: nothing when it made no request. */
export function limitsSummaryLines(summary: ArbiterSummary): string[] {
  const lines = summary.providers
    .filter((provider) => provider.granted > 0)
    .map(
      (provider) =>
        `provider ${provider.key}: ${counted(provider.granted, "request")}, at most ${provider.maxActive} in flight, ` +
        `${counted(provider.retries, "SDK retry", "SDK retries")}` +
        (provider.pauses ? `, ${counted(provider.pauses, "pause")} after a 429` : ""),
    );
  const conversations = summary.conversations;
  if (conversations && (conversations.granted || conversations.skipped)) {
    const skipped = conversations.skipped ? `, ${conversations.skipped} not started (FLOW_MAX_TOKENS reached)` : "";
    lines.push(`conversations: ${conversations.granted} played, at most ${conversations.maxActive} at once${skipped}`);
  }
  if (summary.tokens.length === 0) return lines;
  for (const each of [...summary.tokens].sort((a, b) => a.scenario.localeCompare(b.scenario)))
    lines.push(`tokens ${each.scenario}: ${shown(each)}`);
  const price = summary.price;
  const cost = price ? `; estimated cost $${tokenCost(summary.total, price).toFixed(4)}` : "";
  lines.push(`tokens in total: ${shown(summary.total)}${cost}`);
  return lines;
}
