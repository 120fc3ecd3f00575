import { FlowcheckError } from "../../errors.ts";
import { mergeCoverage, type FlowCoverage } from "./flow-coverage.ts";
import { newestJudgeCalibration } from "./judge-calibration-headline.ts";
import { simulatedSummary } from "./pass-k.ts";
import type { Outcome } from "../checks/turn-report.ts";
import {
  RESULTS_VERSION,
  type ConversationResult,
  type OutcomeCounts,
  type RunRecordLine,
  type ResultTotals,
  type RunResults,
} from "./run-results.ts";

function counts(outcomes: readonly Outcome[]): OutcomeCounts {
  const count = (outcome: Outcome) => outcomes.filter((each) => each === outcome).length;
  return { total: outcomes.length, passed: count("passed"), failed: count("failed"), skipped: count("skipped") };
}

/** The totals of `conversations`: always computed from them, so a merge adds up exactly as one run would. */
export function totalsOf(conversations: readonly ConversationResult[]): ResultTotals {
  const turns = conversations.flatMap((conversation) => conversation.turns);
  const judge = counts(turns.flatMap((turn) => (turn.judge ? [turn.judge.outcome] : [])));
  const graded = judge.passed + judge.failed;
  const sum = (pick: (conversation: ConversationResult) => number) =>
    conversations.reduce((total, conversation) => total + pick(conversation), 0);
  const model = { input: sum((c) => c.tokens.model.input), output: sum((c) => c.tokens.model.output) };
  const judged = { input: sum((c) => c.tokens.judge.input), output: sum((c) => c.tokens.judge.output) };
  const user = { input: sum((c) => c.tokens.user?.input ?? 0), output: sum((c) => c.tokens.user?.output ?? 0) };
  return {
    conversations: counts(conversations.map((conversation) => conversation.outcome)),
    turns: counts(turns.map((turn) => turn.outcome)),
    judge: {
      graded,
      passed: judge.passed,
      failed: judge.failed,
      skipped: judge.skipped,
      passRate: graded ? judge.passed / graded : null,
      unstable: turns.filter((turn) => turn.judge?.unstable).length,
    },
    tokens: {
      model,
      judge: judged,
      ...(conversations.some((c) => c.tokens.user) ? { user } : {}),
      total: [model, judged, user].reduce((total, count) => total + count.input + count.output, 0),
    },
  };
}

/** The pins every conversation that ran shares, value for value. */
function commonPins(conversations: readonly ConversationResult[]): Record<string, string> {
  const ran = conversations.filter((conversation) => conversation.ran);
  const [first, ...rest] = ran;
  return Object.fromEntries(
    Object.entries(first?.pins ?? {}).filter(([key, value]) => rest.every((other) => other.pins[key] === value)),
  );
}

function sorted(conversations: ConversationResult[]): ConversationResult[] {
  const key = (conversation: ConversationResult) => `${conversation.file}\u0000${conversation.name}`;
  return conversations.sort((a, b) => key(a).localeCompare(key(b)) || a.repeat.index - b.repeat.index);
}

/** Each project proof once, whichever process (or shard) noted it. */
function proofsOf(lines: readonly RunRecordLine[]): Pick<RunResults, "projectProofs"> {
  const proofs = new Map(
    lines.flatMap((line) =>
      "projectProof" in line
        ? [[`${line.projectProof.point} ${line.projectProof.key}`, line.projectProof] as const]
        : [],
    ),
  );
  return proofs.size
    ? { projectProofs: [...proofs.values()].sort((a, b) => `${a.point} ${a.key}`.localeCompare(`${b.point} ${b.key}`)) }
    : {};
}

export interface RunInfo {
  startedAt: string;
  endedAt: string;
  commit?: string;
  /** `i/n`, when the run was one shard. */
  shard?: string;
}

/** One run's results from the lines its suites recorded (or a shard's, merged). */
export function runResultsOf(lines: readonly RunRecordLine[], info: RunInfo): RunResults {
  const conversations = sorted(lines.flatMap((line) => ("conversation" in line ? [line.conversation] : [])));
  const simulated = simulatedSummary(conversations);
  return {
    results: RESULTS_VERSION,
    startedAt: info.startedAt,
    endedAt: info.endedAt,
    ...(info.commit ? { commit: info.commit } : {}),
    ...(info.shard ? { shards: [info.shard] } : {}),
    pins: commonPins(conversations),
    models: Object.assign({}, ...conversations.map((conversation) => conversation.models)) as Record<string, string>,
    totals: totalsOf(conversations),
    conversations,
    specsNotLoaded: lines.flatMap((line) => ("specNotLoaded" in line ? [line.specNotLoaded] : [])),
    ...proofsOf(lines),
    ...(simulated ? { simulated } : {}),
  };
}

/**
 * Several runs' results (a sharded run's shards) as one: every conversation once, totals and the
 * simulated scenarios' pass^k counted again over all of them (never added up), the newest judge
 * calibration any of them read. A conversation
 * in two of them is refused: the same shard given twice
 * would otherwise count twice.
 */
export function mergeRunResults(runs: readonly { file: string; results: RunResults }[]): RunResults {
  const seen = new Map<string, string>();
  for (const { file, results } of runs) {
    for (const conversation of results.conversations) {
      const other = seen.get(conversation.id);
      if (other !== undefined) {
        throw new FlowcheckError(
          "results_invalid",
          `${conversation.id} is in both ${other} and ${file}: the same shard given twice, or two runs that overlap; give each shard's results once.`,
        );
      }
      seen.set(conversation.id, file);
    }
  }
  const all = runs.map((run) => run.results);
  const commits = [...new Set(all.flatMap((results) => (results.commit ? [results.commit] : [])))];
  const shards = all.flatMap((results) => results.shards ?? []);
  const merged = runResultsOf(
    all.flatMap((results) => [
      ...results.conversations.map((conversation) => ({ conversation })),
      ...results.specsNotLoaded.map((specNotLoaded) => ({ specNotLoaded })),
      ...(results.projectProofs ?? []).map((projectProof) => ({ projectProof })),
    ]),
    {
      startedAt: all.map((results) => results.startedAt).sort()[0] ?? new Date().toISOString(),
      endedAt:
        all
          .map((results) => results.endedAt)
          .sort()
          .at(-1) ?? new Date().toISOString(),
      ...(commits.length === 1 ? { commit: commits[0]! } : {}),
    },
  );
  const coverage = all.reduce<FlowCoverage>((into, results) => mergeCoverage(into, results.coverage ?? {}), {});
  const judgeCalibration = newestJudgeCalibration(all.map((results) => results.judgeCalibration));
  return {
    ...merged,
    ...(shards.length ? { shards: shards.sort() } : {}),
    ...(Object.keys(coverage).length ? { coverage } : {}),
    ...(judgeCalibration ? { judgeCalibration } : {}),
  };
}

/** `data` read from `file` as a results file, or a `results_invalid` error saying what it is instead. */
export function asRunResults(data: unknown, file: string): RunResults {
  const results = data as Partial<RunResults> | null;
  if (
    results === null ||
    typeof results !== "object" ||
    results.results !== RESULTS_VERSION ||
    !Array.isArray(results.conversations)
  ) {
    const version =
      results !== null && typeof results === "object" && "results" in results
        ? ` (it says "results": ${JSON.stringify(results.results)})`
        : "";
    throw new FlowcheckError(
      "results_invalid",
      `${file} is not a flowcheck results file of version ${RESULTS_VERSION}${version}; give the run-results.json that flowcheck test writes, or a folder holding it.`,
    );
  }
  return { specsNotLoaded: [], ...results } as RunResults;
}
