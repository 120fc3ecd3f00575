import type { SessionDocument } from "../engine/session-document.ts";
import { check, type Check } from "./check.ts";
import { matchPartial } from "./match-partial.ts";
import type { Scenario } from "./scenario.ts";

function summary(entry: Record<string, unknown>): string {
  const to = entry["to"] ? ` → ${String(entry["to"])}` : "";
  return `${String(entry["turn"])}:${String(entry["step"])}.${String(entry["name"])} ${String(entry["outcome"])}${to}`;
}

/** The domain contract at the end: each step's state and the whole execution log. */
export function finalChecks(scenario: Scenario, stored: SessionDocument | undefined): Check[] {
  const checks: Check[] = [];
  for (const [step, expected] of Object.entries(scenario.finalState ?? {})) {
    const problems = stored ? matchPartial(expected, stored.steps[step] ?? {}, `steps.${step}`) : ["no session was stored"];
    checks.push(check("domain", `finalState.${step}`, problems.length ? problems.join("; ") : undefined));
  }
  if (scenario.finalExecution) {
    const log = (stored?.execution ?? []) as unknown as Record<string, unknown>[];
    const expected = scenario.finalExecution;
    const problems =
      log.length !== expected.length
        ? [`expected ${expected.length} execution entries, stored ${log.length}: ${log.map(summary).join(", ") || "none"}`]
        : expected.flatMap((entry, index) => matchPartial(entry, log[index], `execution[${index}]`));
    checks.push(check("domain", "finalExecution", problems.length ? problems.join("; ") : undefined));
  }
  return checks;
}
