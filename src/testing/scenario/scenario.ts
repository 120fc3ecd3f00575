import type { UserStyle } from "../../engine/scripted-user.ts";
import type { TurnInput } from "./turn-input.ts";

/** A scenario file, as `scenarios/scenario.schema.json` describes it. */
export interface Scenario {
  $schema?: string;
  flowName: string;
  /** The target of flowcheck.config.json it is played against; it wins over FLOW_TARGET. */
  target?: string;
  description?: string;
  tags?: string[];
  env?: Record<string, string>;
  judgeModel?: string;
  judgeMinScore?: number;
  judgeInstructions?: string;
  /** The fixed turns; with `user`, the ones that open the conversation (the loader makes an absent list `[]`). */
  turns: ScenarioTurn[];
  /** A simulated user who goes on after the fixed turns, toward a goal. */
  user?: SimulatedUser;
  /** What must hold once a simulated conversation ends; given with `user`. */
  success?: ScenarioSuccess;
  /**
   * State at the end, key by key: each step's state (an object) for our engine's flows; for a
   * target of another kind, each key of its own state, whose value may be any JSON value.
   */
  finalState?: Record<string, Record<string, unknown>>;
  finalExecution?: Record<string, unknown>[];
  finalChildren?: Record<string, unknown>[];
  finalMemory?: Record<string, Record<string, unknown>[]>;
  /** The most tokens the scenario's model calls may use in all, input and output. */
  maxTokens?: number;
  /** The most the scenario's model calls may cost, estimated at the run's prices, in dollars. */
  maxCostUsd?: number;
  /** The conversation once per case, each `{{name}}` replaced by the case's value. */
  cases?: ScenarioCase[];
}

/** A scenario's simulated user, as the file gives it. */
export interface SimulatedUser {
  persona: string;
  goal: string;
  /** What the user knows and may tell: a name, dates, a card. */
  facts?: Record<string, unknown>;
  /** How many messages the simulated user may write; default `DEFAULT_MAX_USER_TURNS`. */
  maxTurns?: number;
  /** Default `cooperative`. */
  style?: UserStyle;
}

/** What must hold at the end of a simulated conversation, graded on what the flow stored. */
export interface ScenarioSuccess {
  /** Whether the flow's run is completed at the end. */
  completed?: boolean;
  /** Each step's stored state, matched partially: the domain contract. */
  finalState?: Record<string, Record<string, unknown>>;
  /** Each phrase somewhere in the assistant's answers, case-insensitive. */
  responseMustInclude?: string[];
  /** No phrase in any answer, case-insensitive: checked on every turn as it is played. */
  responseMustNotInclude?: string[];
  /** A criterion the judge grades over the whole conversation. */
  judge?: string;
  /** The score the judge's verdict needs; default the scenario's `judgeMinScore`, else 0.75. */
  minScore?: number;
}

export interface ScenarioCase {
  label: string;
  values: Record<string, string>;
}

/** The ways a provider fails that a turn can ask of its Nth model call (1 is the turn's first). */
export const MODEL_FAULT_KINDS = ["error", "rate-limit", "timeout", "malformed-tool-call", "truncated"] as const;

export interface ModelFault {
  call: number;
  kind: (typeof MODEL_FAULT_KINDS)[number];
  /** For `timeout`: how long the call is held before its connection is reset. Default 2000. */
  holdMs?: number;
}

export interface ScenarioTurn {
  label: string;
  /** The user's message; for a LangGraph target, any JSON value, which resumes the pending interrupt. */
  input: TurnInput;
  expectedResponse?: string;
  minScore?: number;
  expectedActiveStep?: string;
  completed?: boolean;
  responseMustInclude?: string[];
  responseMustNotInclude?: string[];
  responseMatches?: string | string[];
  expectedStatus?: number;
  expectState?: Record<string, Record<string, unknown>>;
  accept?: string;
  restartBefore?: boolean;
  clockAt?: string;
  /** Shorthand for `modelFault: { call: N, kind: "error" }`; both on one turn are refused. */
  failModelCall?: number;
  /** A provider's failure on one model call of the turn, answered where the target's model is served. */
  modelFault?: ModelFault;
  expectContentType?: string;
  expectCsvRows?: Record<string, string>[];
  /** Tools the turn must call, in this order, other calls allowed between them. */
  expectToolCalls?: ExpectedToolCall[];
  /** The most milliseconds the turn's HTTP exchange may take. */
  maxLatencyMs?: number;
  maxTokens?: number;
  maxCostUsd?: number;
}

/**
 * One call `expectToolCalls` asks for: the tool's name, its arguments and what it returned (both
 * matched partially), and on our engine the outcome it had.
 */
export interface ExpectedToolCall {
  name: string;
  args?: Record<string, unknown>;
  output?: unknown;
  result?: "stay" | "advance" | "complete";
}

/** A scenario that passed every check of the loader, with where it came from. */
export interface LoadedScenario {
  /** The path as given to the loader, for messages. */
  file: string;
  /** The file's name without `.scenario.json`, e.g. `basic-flow`; for a case, with the case's slug after a dot. */
  name: string;
  scenario: Scenario;
  /** For one case of a scenario with `cases`: its label. */
  caseLabel?: string;
  /** Where its parts stand in the file: each turn's line (its label's), and the final expectations'. */
  lines?: { turns: readonly number[]; final: number };
}

export const DEFAULT_JUDGE_MIN_SCORE = 0.75;

/** How many messages a simulated user writes at most when its scenario does not say. */
export const DEFAULT_MAX_USER_TURNS = 10;
