import type { Outcome } from "../checks/turn-report.ts";
import { failedAt } from "./failed-at.ts";
import type { ConversationResult, RunResults } from "./run-results.ts";

/** The groups of what changed, in the order a summary and the page list them. */
export const CHANGE_GROUPS = ["newly failing", "fixed", "still failing", "flaky", "new", "removed"] as const;
export type ChangeGroup = (typeof CHANGE_GROUPS)[number];

/** A scenario's repeats in one run, by outcome. */
export interface Plays {
  passed: number;
  failed: number;
  skipped: number;
}

/** Where a failed repeat failed first, and why: once per distinct pair. */
export interface FailedPlay {
  at?: string;
  reason: string;
}

export interface ScenarioChange {
  group: ChangeGroup;
  /** `<flow>: <name>`, as the summary's tables name a scenario. */
  scenario: string;
  /** Absent for a removed scenario. */
  now?: Plays;
  /** Absent for a new scenario. */
  before?: Plays;
  /** This run's failures of it. */
  failures: FailedPlay[];
}

export interface TurnAt {
  where: string;
  outcome: Outcome;
  score?: number;
}

/** A turn whose outcome (a judge's failure counting as failed) or judge score moved. */
export interface TurnMove {
  now: TurnAt;
  then: TurnAt;
  worse: boolean;
}

export interface RunChanges {
  since: { startedAt: string; commit?: string };
  /** In `CHANGE_GROUPS` order. */
  changes: ScenarioChange[];
  /** Scenarios of both runs in no group: the same outcome in both. */
  unchanged: number;
  /** Scenarios of both runs in no group because every repeat of this run was skipped. */
  skippedNow: number;
  /** Worsened ones first. */
  turnMoves: TurnMove[];
}

// A scenario is the same scenario in two runs when its file and case are; its repeats are grouped.
const scenarioKey = (conversation: ConversationResult) => `${conversation.file}\u0000${conversation.caseLabel ?? ""}`;

interface Scenario {
  name: string;
  plays: Plays;
  failures: FailedPlay[];
}

function scenariosOf(results: RunResults): Map<string, Scenario> {
  const scenarios = new Map<string, Scenario>();
  for (const conversation of results.conversations) {
    const key = scenarioKey(conversation);
    const scenario = scenarios.get(key) ?? {
      name: `${conversation.flowName ?? "?"}: ${conversation.name}`,
      plays: { passed: 0, failed: 0, skipped: 0 },
      failures: [],
    };
    scenarios.set(key, scenario);
    scenario.plays[conversation.outcome]++;
    if (conversation.outcome !== "failed") continue;
    const [at, reason] = [failedAt(conversation), conversation.reason ?? "failed"];
    const failure: FailedPlay = at === undefined ? { reason } : { at, reason };
    if (!scenario.failures.some((each) => each.at === failure.at && each.reason === failure.reason))
      scenario.failures.push(failure);
  }
  return scenarios;
}

type Verdict = "passed" | "failed" | "mixed" | "skipped";

/** Over a run's repeats of a scenario, the skipped ones aside. */
function verdictOf({ passed, failed }: Plays): Verdict {
  return passed && failed ? "mixed" : failed ? "failed" : passed ? "passed" : "skipped";
}

function groupOf(now: Plays, before: Plays): ChangeGroup | undefined {
  const [is, was] = [verdictOf(now), verdictOf(before)];
  if (is === "mixed" || was === "mixed") return "flaky";
  if (is === "failed") return was === "failed" ? "still failing" : "newly failing";
  if (is === "passed" && was === "failed") return "fixed";
  return undefined;
}

// A turn is the same turn in two runs when its file, case, repeat and label are: its number may move.
function turnsOf(results: RunResults): Map<string, TurnAt> {
  const turns = new Map<string, TurnAt>();
  for (const conversation of results.conversations)
    for (const turn of conversation.turns)
      turns.set([scenarioKey(conversation), conversation.repeat.index, turn.label].join("\u0000"), {
        where: `${conversation.name}${conversation.repeat.of > 1 ? ` @${conversation.repeat.index}` : ""} › ${turn.label}`,
        outcome: turn.judge?.outcome === "failed" ? "failed" : turn.outcome,
        ...(turn.judge?.score !== undefined ? { score: turn.judge.score } : {}),
      });
  return turns;
}

function turnMoves(results: RunResults, older: RunResults): TurnMove[] {
  const before = turnsOf(older);
  return [...turnsOf(results)]
    .flatMap(([key, now]) => {
      const then = before.get(key);
      if (!then || (then.outcome === now.outcome && then.score === now.score)) return [];
      const worse =
        (now.outcome === "failed" && then.outcome !== "failed") ||
        (now.outcome === then.outcome && (now.score ?? 0) < (then.score ?? 0));
      return [{ now, then, worse }];
    })
    .sort((a, b) => Number(b.worse) - Number(a.worse));
}

/**
 * What changed since `older`, scenario by scenario (its file and case; its repeats together, a
 * skipped repeat counting for neither side): newly failing (fails now, did not fail then), fixed
 * (failed then, passes now), still failing, flaky (passed in some repeats and failed in others, in
 * either run), new and removed; and the turns whose outcome or judge score moved.
 */
export function runChanges(results: RunResults, older: RunResults): RunChanges {
  const [now, before] = [scenariosOf(results), scenariosOf(older)];
  const changes: ScenarioChange[] = [];
  let unchanged = 0;
  let skippedNow = 0;
  for (const [key, scenario] of now) {
    const then = before.get(key);
    const group = then ? groupOf(scenario.plays, then.plays) : "new";
    if (group)
      changes.push({
        group,
        scenario: scenario.name,
        now: scenario.plays,
        ...(then ? { before: then.plays } : {}),
        failures: scenario.failures,
      });
    else if (verdictOf(scenario.plays) === "skipped" && verdictOf(then!.plays) !== "skipped") skippedNow++;
    else unchanged++;
  }
  for (const [key, scenario] of before)
    if (!now.has(key))
      changes.push({ group: "removed", scenario: scenario.name, before: scenario.plays, failures: [] });
  changes.sort((a, b) => CHANGE_GROUPS.indexOf(a.group) - CHANGE_GROUPS.indexOf(b.group));
  return {
    since: { startedAt: older.startedAt, ...(older.commit ? { commit: older.commit.slice(0, 12) } : {}) },
    changes,
    unchanged,
    skippedNow,
    turnMoves: turnMoves(results, older),
  };
}

/** A scenario's repeats in one run in a few words: `failed`, or `2 of 3 passed, 1 skipped`. */
export function playsText({ passed, failed, skipped }: Plays): string {
  if (passed + failed + skipped === 1) return passed ? "passed" : failed ? "failed" : "skipped";
  return [
    ...(passed + failed ? [`${passed} of ${passed + failed} passed`] : []),
    ...(skipped ? [`${skipped} skipped`] : []),
  ].join(", ");
}

const scenarios = (count: number) => `${count} scenario${count === 1 ? "" : "s"}`;

/** The line under the groups: the scenarios of both runs in none (or that nothing changed); empty when there are none. */
export function othersText({ changes, unchanged, skippedNow }: RunChanges): string {
  const parts = changes.length
    ? unchanged
      ? [`${unchanged} more scenario${unchanged === 1 ? "" : "s"} unchanged`]
      : []
    : [`Nothing changed: ${scenarios(unchanged)}, each with the outcome it had`];
  if (skippedNow) parts.push(`${scenarios(skippedNow)} skipped in this run after playing in the older one`);
  return parts.length ? `${parts.join("; ")}.` : "";
}

/** A group's title, as the summary and the page head it. */
export const groupTitle = (group: ChangeGroup): string => group[0]!.toUpperCase() + group.slice(1);

/** What a change's name is followed by: both runs' plays for a flaky one, this run's for a new one, the older's for a removed one. */
export function playsFacts({ group, now, before }: ScenarioChange): string {
  if (group === "flaky") return `${playsText(now!)} now, ${playsText(before!)} before`;
  if (group === "new") return playsText(now!);
  if (group === "removed") return `${playsText(before!)} before`;
  return "";
}
