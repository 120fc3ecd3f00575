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
  turns: ScenarioTurn[];
  finalState?: Record<string, Record<string, unknown>>;
  finalExecution?: Record<string, unknown>[];
  finalChildren?: Record<string, unknown>[];
  finalMemory?: Record<string, Record<string, unknown>[]>;
  /** The conversation once per case, each `{{name}}` replaced by the case's value. */
  cases?: ScenarioCase[];
}

export interface ScenarioCase {
  label: string;
  values: Record<string, string>;
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
  failModelCall?: number;
  expectContentType?: string;
  expectCsvRows?: Record<string, string>[];
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
