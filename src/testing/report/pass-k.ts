import { FlowcheckError } from "../../errors.ts";
import type { ConversationResult, SimulatedScenarioResult, SimulatedSummary } from "./run-results.ts";

/**
 * pass^k for k = 1…tries (index k - 1): the chance that k tries drawn from `tries` all succeed,
 * the unbiased C(successes, k) / C(tries, k). Built as a running product of ratios
 * (successes - i) / (tries - i), so no factorial overflows however many repeats.
 */
export function passK(successes: number, tries: number): number[] {
  if (!Number.isInteger(successes) || !Number.isInteger(tries) || successes < 0 || successes > tries)
    throw new FlowcheckError(
      "pass_k_invalid",
      `pass^k needs whole counts with 0 ≤ successes ≤ tries, not ${successes} of ${tries}; count the conversations that ran and those that passed.`,
    );
  const values: number[] = [];
  let product = 1;
  for (let i = 0; i < tries; i++) {
    product *= (successes - i) / (tries - i);
    // Twelve digits hide the last bit a product of ratios loses: 3 of 5 reads pass^3 0.1, not 0.09999999999999999.
    values.push(Math.max(0, Number(product.toPrecision(12))));
  }
  return values;
}

function scenarioOf(tries: readonly ConversationResult[]): SimulatedScenarioResult {
  const [first] = tries as [ConversationResult];
  const ran = tries.filter((conversation) => conversation.ran);
  const successes = ran.filter((conversation) => conversation.outcome === "passed").length;
  return {
    file: first.file,
    name: first.name,
    ...(first.flowName ? { flowName: first.flowName } : {}),
    tries: ran.length,
    successes,
    passK: passK(successes, ran.length),
    flaky: successes > 0 && successes < ran.length,
  };
}

/**
 * The simulated scenarios of `conversations` (their repeats, from whichever shard, together) with
 * their successes and pass^k, and the run's pass^k: for each k the mean over the scenarios tried
 * at least k times. Undefined when no conversation was simulated.
 */
export function simulatedSummary(conversations: readonly ConversationResult[]): SimulatedSummary | undefined {
  const groups = new Map<string, ConversationResult[]>();
  for (const conversation of conversations.filter((each) => each.simulation)) {
    const key = `${conversation.file}\u0000${conversation.name}`;
    groups.set(key, [...(groups.get(key) ?? []), conversation]);
  }
  if (groups.size === 0) return undefined;
  const scenarios = [...groups.values()].map(scenarioOf);
  const most = Math.max(...scenarios.map((scenario) => scenario.tries));
  const run = Array.from({ length: most }, (_, index) => {
    const values = scenarios.flatMap((scenario) => (scenario.tries > index ? [scenario.passK[index]!] : []));
    return Number((values.reduce((sum, value) => sum + value, 0) / values.length).toPrecision(12));
  });
  return { scenarios, passK: run };
}
