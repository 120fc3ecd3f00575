import type { ExecutionEntry, RunStatus } from "../../engine/session-document.ts";
import type { Check } from "../checks/check.ts";
import type { UserStyle } from "../../engine/scripted-user.ts";
import type { Outcome, SimulationEnd, TokenCount, TurnReport } from "../checks/turn-report.ts";
import type { RecordedCassette } from "../run/scenario-event.ts";
import type { JudgeSample } from "../judge/sampled-verdict.ts";
import type { FlowCoverage } from "./flow-coverage.ts";
import type { StoredSummary } from "./stored-summary.ts";
import type { JudgeCalibration } from "../judge/judge-calibration-file.ts";

/**
 * `test/.tmp/run-results.json`: everything one run (or the merge of its shards) did, turn by turn.
 * It is the one source its renderers read (JUnit, the job summary, an HTML report), so it holds
 * every conversation that was meant to run, including those that never did, with the reason.
 */
export interface RunResults {
  results: typeof RESULTS_VERSION;
  startedAt: string;
  endedAt: string;
  /** The commit the run tested, when it ran in a git checkout. */
  commit?: string;
  /** The shards merged into this result (`"2/4"`), when the run was sharded. */
  shards?: string[];
  /** The pins every conversation shares (secrets redacted); a conversation's own are on it. */
  pins: Record<string, string>;
  /** Each flow's model mode, as the conversations ran it. */
  models: Record<string, string>;
  totals: ResultTotals;
  conversations: ConversationResult[];
  /** Spec files that failed to import: whatever scenarios they describe never ran. */
  specsNotLoaded: { file: string; message: string }[];
  /** What the project-wide checklist points rest on that passed in this run (migrations, reset, typecheck). */
  projectProofs?: ProjectProof[];
  /** What the scenarios reached of each flow, from their stored sessions (as in flow-coverage.json). */
  coverage?: FlowCoverage;
  /** The new-flow checklist of every registered flow, measured on this run. */
  checklist?: FlowChecklist[];
  /** The simulated scenarios' successes over their repeats, and pass^k; recomputed from `conversations` when shards merge. */
  simulated?: SimulatedSummary;
  /** The committed judge calibration the run read (`scenarios/judge-calibration.json`), when there is one. */
  judgeCalibration?: JudgeCalibrationHeadline;
}

/**
 * What a run keeps of the committed calibration: how far its judge agreed with people's labels,
 * and when that was measured, so the summaries can say how much the night's verdicts are worth.
 */
export type JudgeCalibrationHeadline = Pick<
  JudgeCalibration,
  "writtenAt" | "labels" | "agreement" | "kappa" | "bestMinScore" | "samples"
> & {
  /** The calibration file, as the run named it (relative to its working directory). */
  file: string;
};

/**
 * A simulated scenario's tries: `successes` of `tries` conversations passed, and `passK[k - 1]`,
 * for k = 1…tries, the chance that k tries drawn from them all succeed, C(successes, k) / C(tries, k).
 */
export interface SimulatedScenarioResult {
  file: string;
  name: string;
  flowName?: string;
  tries: number;
  successes: number;
  passK: number[];
  /** It succeeded in some tries and not in others. */
  flaky: boolean;
}

export interface SimulatedSummary {
  scenarios: SimulatedScenarioResult[];
  /** Over the run: `passK[k - 1]` is the mean of pass^k over the scenarios tried at least k times. */
  passK: number[];
}

/** A project-wide fact a checklist point rests on, noted by the spec that proved it: point `10` keys `v1`…, `reset`; point `12` key `typecheck`. */
export interface ProjectProof {
  point: "10" | "12";
  key: string;
}

export const RESULTS_VERSION = 1;

export interface ResultTotals {
  conversations: OutcomeCounts;
  turns: OutcomeCounts;
  /**
   * Judge checks: those graded, and of those the share that passed (null when none was graded);
   * `unstable`: the verdicts whose samples disagreed (`JUDGE_SAMPLES` above 1).
   */
  judge: { graded: number; passed: number; failed: number; skipped: number; passRate: number | null; unstable: number };
  /** `user`: the simulated users' models, when any conversation was simulated; `total` counts it too. */
  tokens: { model: TokenCount; judge: TokenCount; user?: TokenCount; total: number };
}

export interface OutcomeCounts {
  total: number;
  passed: number;
  failed: number;
  skipped: number;
}

/** One conversation: a scenario file, one of its cases, one of its repeats. */
export interface ConversationResult {
  /** `<file>#<name>` and, repeated, `@<repeat>`: unique within a run. */
  id: string;
  file: string;
  /** As the suite is named: the file's path under its scenarios folder, `.<case>` for a case. */
  name: string;
  flowName?: string;
  caseLabel?: string;
  /** The scenario's tags, for a report's filter. */
  tags?: string[];
  repeat: { index: number; of: number };
  outcome: Outcome;
  /** False for a conversation that never started: a skipped suite, a file that does not load, a target that did not start. */
  ran: boolean;
  /** Why it was skipped or never ran, or its first failure. */
  reason?: string;
  /** `semantic` when only the judge failed. */
  kind?: "contract" | "semantic";
  target?: { baseUrl: string; store: string };
  pins: Record<string, string>;
  models: Record<string, string>;
  startedAt?: string;
  millis?: number;
  tokens: { model: TokenCount; judge: TokenCount; user?: TokenCount };
  turns: TurnResult[];
  /** For a simulated conversation: its user as the scenario gives it, who played it, and how it ended. */
  simulation?: {
    persona: string;
    goal: string;
    style: UserStyle;
    player: string;
    userTurns: number;
    end: SimulationEnd;
  };
  final?: { outcome: Outcome; skipReason?: string; failure?: string; location?: string; checks: Check[] };
  /** The cassette it recorded (FLOW_MODEL=record, or auto without one), and whether it was saved: a failed auto recording is not. */
  recorded?: RecordedCassette;
}

/** A turn as the run played it (or why it did not), with what it changed in the stored session. */
export interface TurnResult extends Omit<TurnReport, "stored" | "answer"> {
  answer?: { text: string; contentType?: string };
  /** The stored session's step and run status after the turn, and its turn count where the target keeps one. */
  stored?: StoredSummary;
  changed?: SessionChange;
  judge?: JudgeResult;
}

export interface JudgeResult {
  outcome: Outcome;
  score?: number;
  minScore?: number;
  reason?: string;
  /** Why it failed or was skipped. */
  message?: string;
  /** The expectation it graded (`expectedResponse`), when a judge graded it. */
  expected?: string;
  /** With `JUDGE_SAMPLES` above 1: each sample's verdict, and whether they disagreed. */
  samples?: JudgeSample[];
  unstable?: boolean;
}

/** What one turn changed in the stored session: only what differs is present. */
export interface SessionChange {
  step?: { from: string | null; to: string };
  runStatus?: { from: RunStatus | null; to: RunStatus };
  /**
   * Per step: its state's keys added (with their values), changed (from → to) and removed. A
   * target of another kind keeps a state key's value, not a step's object: `value`, from → to
   * (`from` undefined: added; `to` undefined: removed).
   */
  state?: Record<
    string,
    {
      added?: Record<string, unknown>;
      changed?: Record<string, { from: unknown; to: unknown }>;
      removed?: string[];
      value?: { from: unknown; to: unknown };
    }
  >;
  /** The execution entries the turn wrote (read from the session at the end of the conversation). */
  execution?: ExecutionEntry[];
  /** Nested runs the turn started. */
  children?: { flow: string; parentStep: string; runStatus: RunStatus; currentStep: string }[];
}

/** One line of a run's record: a conversation, a spec file that did not load, or a project proof. */
export type RunRecordLine =
  | { conversation: ConversationResult }
  | { specNotLoaded: { file: string; message: string } }
  | { projectProof: ProjectProof };

/**
 * The new-flow checklist of the flow-testing guide, measured on a run (`src/testing/checklist/`):
 * each point of each registered flow (and child flow) proved by what the run stored and checked,
 * or what to add.
 */
export type PointStatus = "proved" | "missing" | "not applicable" | "not judged";

export interface ChecklistPoint {
  /** The guide's number (`"1"` … `"12"`), or `steps`, `tools`, `transitions` for the points beyond it. */
  id: string;
  status: PointStatus;
  /** What proves it, or what to add. */
  detail: string;
}

export interface FlowChecklist {
  flow: string;
  childOf?: string;
  /** Its scenario files, and how many of them ran in this run (or the merged shards). */
  scenarios: { total: number; ran: number };
  /** Whether every scenario ran: only then is a point proved or missing. */
  judged: boolean;
  /** `FLOW_CHECKLIST=strict` or the flow's `<FLOW>_STRICT_CHECKLIST=1`: a missing point fails the run. */
  strict: boolean;
  points: ChecklistPoint[];
}
