import type { SessionView, SessionViewHead } from "./session-view.ts";
import type { Check } from "./check.ts";
import type { TurnInput } from "../scenario/turn-input.ts";
import type { CalledTool } from "./called-tool.ts";

export type Outcome = "passed" | "failed" | "skipped";

/** Tokens as a provider's `usage` counts them: the prompt's and the completion's. */
export interface TokenCount {
  input: number;
  output: number;
}

export interface TurnReport {
  /** 1-based, as the tests are numbered. */
  number: number;
  label: string;
  /** The turn's input as the scenario gives it: a message, or a JSON value that resumed an interrupt. */
  input: TurnInput;
  /** The answer's text (its `response`, or an error's message), when there was an answer. */
  answer?: string;
  /** The contracts' outcome; a judge's verdict is in `checks` and does not fail the turn. */
  outcome: Outcome;
  /** For a skipped turn, why. */
  skipReason?: string;
  /** For a failed turn, every failed check with the response, in one message. */
  failure?: string;
  /**
   * For a failed turn, and one whose judge's samples disagreed, where it stands in its file
   * (`scenarios/basic-flow.scenario.json:27`), when it was read from one.
   */
  location?: string;
  /** The Idempotency-Key the turn was sent under: sending the turn again with it cannot apply it twice. */
  idempotencyKey?: string;
  /**
   * The request as it was sent, credentials' header values redacted: `url` is the whole URL (absent
   * in results written before it was kept: `path` is then under the target's baseUrl).
   */
  request?: { method: string; url?: string; path: string; headers: Record<string, string>; body: unknown };
  response?: { status: number; headers: Record<string, string>; body: unknown };
  /**
   * The tools the turn called, in order, with their arguments, outputs and how they ended: as its
   * answer reported them, or on our engine as its stored log holds them (added once the
   * conversation ends, and only for a turn that called any). Absent: they are not known.
   */
  toolCalls?: CalledTool[];
  /**
   * The session as the store held it after the turn: its head, which the checks read. The whole
   * session, conversation included, is in the final report.
   */
  stored?: SessionViewHead;
  checks: Check[];
  millis?: { http: number; store: number };
  /** What the turn's model calls (the app's, in this process), its judge call and its simulated user's call used, when known. */
  tokens?: { model?: TokenCount; judge?: TokenCount; user?: TokenCount };
  /** For a turn a simulated user wrote: its number among the user's messages, and why it said it, when it said. */
  simulated?: { turn: number; reason?: string };
}

/**
 * Why a simulated conversation ended: the user said it was done (the goal reached, or out of
 * reach), the flow completed, the user reached `maxTurns`, a turn failed its contracts, or the
 * user's model (or script) failed.
 */
export type SimulationEndReason = "user-done" | "flow-completed" | "max-turns" | "turn-failed" | "user-failed";

export interface SimulationEnd {
  reason: SimulationEndReason;
  /** In words, for a person: the user's own reason, the turn that failed, what the user's model sent. */
  detail: string;
}

/** A simulated conversation as it went: who played the user, how many messages it wrote, and why it ended. */
export interface SimulationReport {
  /** `scripted`, `live gpt-4o-mini`, `replay` — what wrote the user's messages. */
  player: string;
  userTurns: number;
  end: SimulationEnd;
}

export interface FinalReport {
  outcome: Outcome;
  skipReason?: string;
  failure?: string;
  /** For a failed final state, where the final expectations stand in the file, when it was read from one. */
  location?: string;
  checks: Check[];
  /** The whole session as the store held it at the end, after the last turn played. */
  stored?: SessionView;
  /** For a simulated conversation: how it went; its `success` checks are among `checks`. */
  simulation?: SimulationReport;
}
