import type { Mutant } from "./mutant.ts";
import type { TurnReport } from "../checks/turn-report.ts";
import { liveCatch } from "./live-catch.ts";
import { playDifferences, type PlayDifference } from "./play-differences.ts";
import type { StrengthPlay } from "./strength-play.ts";

/**
 * What killed a mutant: a check of the scenario, or only the scripted model (`script_unmatched`) or
 * a cassette (`cassette_mismatch`) refusing the prompt the mutant changed, which a live run would not do.
 */
export type KillCause = "check" | "script" | "cassette";

/** Where a mutant was caught: the scenario, the turn (none for the final state) and what failed. */
export interface Catch {
  scenario: string;
  turn?: { number: number; label: string };
  /** The failed check as `contract name` (`expectation expectState.NameStep`), or the refusing code. */
  check: string;
  message: string;
}

export type MutantVerdict =
  /**
   * Killed by the script or a cassette: what the turns before it stored or answered otherwise, and
   * the expectation on the refusing turn that a live run would need (`live`).
   */
  | ({ verdict: "killed"; by: KillCause; differences?: PlayDifference[]; live?: string } & Catch)
  | ({ verdict: "timed-out" } & Catch)
  | { verdict: "survived"; differences: PlayDifference[] }
  /** `reason`: why flowcheck.config.json marks it so, when no play tells it apart but a team does. */
  | { verdict: "equivalent"; reason?: string }
  | { verdict: "not-reached" };

/** A mutated play of a scenario beside the same scenario's unmutated one. */
export interface PlayPair {
  baseline: StrengthPlay;
  mutated: StrengthPlay;
}

const TIMED_OUT = /gave no whole answer within \d+ ms/;

function refusalOf(turn: TurnReport): "script_unmatched" | "cassette_mismatch" | undefined {
  const code = (turn.response?.body as { error?: { code?: unknown } } | undefined)?.error?.code;
  if (code === "script_unmatched" || code === "cassette_mismatch") return code;
  if (turn.checks.some((check) => check.contract === "cassette" && check.outcome === "failed"))
    return "cassette_mismatch";
  return undefined;
}

function turnVerdict(scenario: string, turn: TurnReport): MutantVerdict {
  const at = { scenario, turn: { number: turn.number, label: turn.label } };
  const message = turn.failure ?? "";
  const failedCheck = turn.checks.find((check) => check.outcome === "failed");
  if (TIMED_OUT.test(message)) return { verdict: "timed-out", ...at, check: "timeout", message };
  const refusal = refusalOf(turn);
  if (refusal)
    return {
      verdict: "killed",
      by: refusal === "script_unmatched" ? "script" : "cassette",
      ...at,
      check: refusal,
      message,
    };
  const check = failedCheck ? `${failedCheck.contract} ${failedCheck.name}` : "turn";
  return { verdict: "killed", by: "check", ...at, check, message };
}

function failedPlayVerdict({ baseline, mutated: play }: PlayPair, mutant: Mutant | undefined): MutantVerdict {
  const turn = play.turns.find((candidate) => candidate.outcome === "failed");
  if (turn) {
    const verdict = turnVerdict(play.scenario, turn);
    if (verdict.verdict !== "killed" || verdict.by === "check") return verdict;
    const before = { ...play, turns: play.turns.filter((candidate) => candidate.number < turn.number) };
    const live = mutant ? { live: liveCatch(mutant, baseline.turns[turn.number - 1]) } : {};
    return { ...verdict, differences: playDifferences(baseline, before), ...live };
  }
  const failedCheck = play.final?.checks.find((check) => check.outcome === "failed");
  const check = failedCheck ? `${failedCheck.contract} ${failedCheck.name}` : "final state";
  return { verdict: "killed", by: "check", scenario: play.scenario, check, message: play.final?.failure ?? "" };
}

/**
 * A mutant's verdict from its plays (stopped at the first that failed): killed by the first
 * failure, timed out, or, every play passing, survived with what differed from the unmutated
 * plays, or equivalent when nothing any turn could observe differed. No play: not reached.
 */
export function mutantVerdict(pairs: readonly PlayPair[], mutant?: Mutant): MutantVerdict {
  if (pairs.length === 0) return { verdict: "not-reached" };
  const failing = pairs.find(({ mutated }) => mutated.outcome === "failed");
  if (failing) return failedPlayVerdict(failing, mutant);
  const differences = pairs.flatMap(({ baseline, mutated }) => playDifferences(baseline, mutated));
  return differences.length ? { verdict: "survived", differences } : { verdict: "equivalent" };
}
