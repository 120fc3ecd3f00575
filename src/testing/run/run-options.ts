import type { DomainCheck, TurnCheck } from "../checks/domain-check.ts";
import type { ChatClientOptions } from "../client/chat-client.ts";
import type { Judge } from "../judge/judge.ts";
import type { UserSimulator } from "../user/user-simulator.ts";

export interface RunOptions {
  judge?: Judge;
  /** Why there is no judge; the judged checks are skipped with it. */
  judgeUnavailable?: string;
  /** A missing judge fails the judged checks instead (`JUDGE=required`). */
  judgeRequired?: boolean;
  domain?: DomainCheck;
  /** Run after every answered turn whose session could be read (`eachTurn`). */
  eachTurn?: TurnCheck;
  /** How long a turn may take, from sending it to the answer's last byte; unset: no limit. */
  turnTimeoutMs?: number;
  /** Plays a scenario's simulated user; unset: `userUnavailable` says why, and a simulated scenario fails with it. */
  user?: UserSimulator;
  userUnavailable?: string;
  /** The flow's step names, when known: a simulated user's turn must leave the session on one of them. */
  steps?: readonly string[];
  /** Headers added to every request (`FLOW_HEADERS`); their values never reach a report or transcript. */
  headers?: Readonly<Record<string, string>>;
}

/** What a run's requests to the target carry besides the turn: its timeout and extra headers. */
export function clientOptions(options: RunOptions): ChatClientOptions {
  return {
    ...(options.turnTimeoutMs === undefined ? {} : { timeoutMs: options.turnTimeoutMs }),
    ...(options.headers ? { headers: options.headers } : {}),
  };
}
