import type { ExecutionEntry } from "../../engine/session-document.ts";
import type { UserStyle } from "../../engine/scripted-user.ts";
import type { FinalReport, Outcome, TurnReport } from "../checks/turn-report.ts";
import type { CalledTool } from "../checks/called-tool.ts";
import type { RecordedCassette, TargetSummary } from "../run/scenario-event.ts";
import type { TurnInput } from "../scenario/turn-input.ts";
import type { FlowCoverage } from "./flow-coverage.ts";
import type {
  ConversationResult,
  FlowChecklist,
  JudgeCalibrationHeadline,
  JudgeResult,
  ProjectProof,
} from "./run-results.ts";

/**
 * One event of a flowcheck test run, as every reporter receives it: `{ type, data }`, in the order
 * things happened, secrets already redacted. A conversation's events come in order (begin, its turns
 * with their judge verdicts, final, end); several conversations' interleave.
 */
export type RunEvent =
  | { type: "run:begin"; data: RunBegin }
  | { type: "conversation:begin"; data: ConversationBegin }
  | { type: "turn"; data: TurnEventData }
  | { type: "judge"; data: JudgeEventData }
  | { type: "final"; data: FinalEventData }
  | { type: "conversation:end"; data: ConversationEnd }
  | { type: "repeat"; data: RepeatSummary }
  | { type: "spec:not-loaded"; data: { file: string; message: string } }
  | { type: "proof"; data: ProjectProof }
  | { type: "run:problem"; data: RunProblem }
  | { type: "run:end"; data: RunEnd };

/** What the run set out to do. */
export interface RunBegin {
  startedAt: string;
  /** The commit checked out, when the run is in a git checkout. */
  commit?: string;
  /** `i/n`, when the run is one shard. */
  shard?: string;
  /** The spec files node:test plays. */
  files: string[];
  /** The scenario files and folders the run is narrowed to; absent: every file. */
  scenarioPaths?: string[];
  /** The scenario files no spec describes, played against their targets. */
  targetScenarios?: string[];
  /** `--repeat`: how many times each conversation is played; absent: each suite's own setting. */
  repeat?: number;
  /** Whether node:test's filters (name patterns, `only`) may leave some tests unrun. */
  filtered: boolean;
  /** The committed judge calibration, read once as the run begins. */
  judgeCalibration?: JudgeCalibrationHeadline;
}

/** Which conversation an event is about (`id`, as run-results.json names it), and the turns its scenario plans. */
export interface ConversationIdentity
  extends Pick<ConversationResult, "id" | "file" | "name" | "flowName" | "caseLabel" | "tags" | "repeat"> {
  /** The scenario's own turns, each with where it stands in its file; a simulated user's come after them. */
  planned: { label: string; input: TurnInput; location?: string }[];
  /** Where the final expectations stand in the scenario file. */
  finalLocation?: string;
  description?: string;
  /** A simulated conversation's user, as the scenario gives it. */
  user?: { persona: string; goal: string; style: UserStyle };
}

/** A conversation whose target is up, about to play its first turn. */
export interface ConversationBegin extends ConversationIdentity {
  startedAt: string;
  target: TargetSummary;
}

/** A turn as it was played: the request sent, the answer, the stored session, every check and the outcome. */
export type TurnEventData = TurnReport & { conversation: string };

/** The judge's verdict on a turn (`score` against `minScore`), or why it was not graded. */
export type JudgeEventData = JudgeResult & { conversation: string; turn: number; label: string };

/** The final expectations' checks, after the last turn; a simulated conversation's success among them. */
export type FinalEventData = FinalReport & { conversation: string };

/** How a conversation ended, or why it never ran. */
export interface ConversationEnd extends ConversationIdentity {
  outcome: Outcome;
  /** Why it was skipped or never ran, or its first failure. */
  reason?: string;
  /** `semantic` when only the judge failed. */
  kind?: "contract" | "semantic";
  /** False for a conversation that never started. */
  ran: boolean;
  millis?: number;
  /** The cassette it recorded, and whether it was saved. */
  recorded?: RecordedCassette;
  /** Per turn number: the execution entries the stored session says that turn wrote. */
  execution?: Record<number, ExecutionEntry[]>;
  /** Per turn number: the tools our engine's stored log says that turn called, for a turn whose answer did not report them. */
  toolCalls?: Record<number, CalledTool[]>;
  /** What this conversation reached of its flow (steps, tools, moves), to add to the run's coverage. */
  coverage?: FlowCoverage;
}

/** A conversation played `of` times: how many passed, the rate, and pass^k for a simulated one. */
export interface RepeatSummary {
  file: string;
  name: string;
  flowName?: string;
  of: number;
  passed: number;
  passRate: number;
  /** `passK[k - 1]`: the chance that k runs drawn from these all pass. */
  passK?: number[];
}

/**
 * Why a run stops before anything plays: the lines that say so (printed on stderr unless the exit
 * code is 0) and the run's exit code: 2 for a configuration that does not read, 1 when there is
 * nothing to run, 0 for a shard with nothing in it, whose results are still written so that a merge
 * finds every shard.
 */
export interface RunProblem {
  lines: string[];
  exitCode: number;
}

export interface RunEnd {
  endedAt: string;
  /** Whether every node:test test passed. */
  passed: boolean;
  /** The new-flow checklist measured on the run, when it played a registered flow. */
  checklist?: FlowChecklist[];
}

/**
 * A reporter of a flowcheck test run, as node:test's custom reporters are: handed the run's events
 * as an async iterable, it reads them at its own pace, and the run waits for it to finish. An async
 * generator's yielded strings are printed.
 */
export type RunReporter = (events: AsyncIterable<RunEvent>) => unknown;
