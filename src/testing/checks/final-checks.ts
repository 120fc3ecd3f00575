import type { SessionView } from "./session-view.ts";
import { compared, type Check } from "./check.ts";
import { matchPartial } from "./match-partial.ts";
import { stateMatch, type StateKeys } from "./state-match.ts";
import type { Scenario } from "../scenario/scenario.ts";

/** One line per execution entry or child run, to show what was stored when the lengths differ. */
function entrySummary(entry: Record<string, unknown>): string {
  const to = entry["to"] ? ` → ${String(entry["to"])}` : "";
  return `${String(entry["turn"])}:${String(entry["step"])}.${String(entry["name"])} ${String(entry["outcome"])}${to}`;
}

function childSummary(child: Record<string, unknown>): string {
  return `${String(child["turn"])}:${String(child["parentStep"])} → ${String(child["flow"])} ${String(child["runStatus"])}`;
}

function messageSummary(message: Record<string, unknown>): string {
  const calls = Array.isArray(message["toolCalls"])
    ? ` [${(message["toolCalls"] as { name?: unknown }[]).map((call) => String(call.name)).join(", ")}]`
    : "";
  const from = message["role"] === "handoff" ? ` from ${String(message["from"])}` : "";
  return `${String(message["role"])}${from}${calls}`;
}

/** A list that must have as many items as expected, each matching its expected item partially. */
function listProblems(
  expected: readonly Record<string, unknown>[],
  stored: readonly Record<string, unknown>[],
  path: string,
  what: string,
  summary: (item: Record<string, unknown>) => string,
): string[] {
  if (stored.length !== expected.length) {
    return [
      `expected ${expected.length} ${what}, stored ${stored.length}: ${stored.map(summary).join(", ") || "none"}`,
    ];
  }
  return expected.flatMap((item, index) => matchPartial(item, stored[index], `${path}[${index}]`));
}

/** One final check of the domain contract: failed with its problems joined, passed when there are none. */
function domainCheck(name: string, problems: string[], expected: unknown, actual: unknown): Check {
  return compared("domain", name, problems.length ? problems.join("; ") : undefined, expected, actual);
}

/**
 * The domain contract at the end: each step's state (each key of a target's own state, by
 * `keyedBy`), the whole execution log, the nested runs, and the memory namespaces the scenario lists.
 */
export function finalChecks(scenario: Scenario, stored: SessionView | undefined, keyedBy: StateKeys = "step"): Check[] {
  const checks: Check[] = [];
  const none = ["no session was stored"];
  for (const [step, expected] of Object.entries(scenario.finalState ?? {})) {
    const problems = stored ? stateMatch(expected, stored.steps, step, keyedBy) : none;
    checks.push(domainCheck(`finalState.${step}`, problems, expected, stored?.steps[step]));
  }
  if (scenario.finalExecution) {
    const log = (stored?.execution ?? []) as unknown as Record<string, unknown>[];
    const problems = stored
      ? listProblems(scenario.finalExecution, log, "execution", "execution entries", entrySummary)
      : none;
    checks.push(domainCheck("finalExecution", problems, scenario.finalExecution, stored?.execution));
  }
  if (scenario.finalChildren) {
    const children = (stored?.children ?? []) as unknown as Record<string, unknown>[];
    const problems = stored
      ? listProblems(scenario.finalChildren, children, "children", "nested runs", childSummary)
      : none;
    checks.push(
      domainCheck(
        "finalChildren",
        problems,
        scenario.finalChildren,
        stored?.children.map(({ memory: _memory, execution: _execution, ...child }) => child),
      ),
    );
  }
  for (const [namespace, expected] of Object.entries(scenario.finalMemory ?? {})) {
    const messages = stored?.memory[namespace] as unknown as Record<string, unknown>[] | undefined;
    const namespaces = Object.keys(stored?.memory ?? {});
    const problems = !stored
      ? none
      : !messages
        ? [`memory has no namespace ${namespace}; it has ${namespaces.join(", ") || "none"}`]
        : listProblems(expected, messages, `memory.${namespace}`, "messages", messageSummary);
    checks.push(domainCheck(`finalMemory.${namespace}`, problems, expected, messages));
  }
  return checks;
}
