import type { Check } from "../checks/check.ts";
import type { FinalReport, TokenCount, TurnReport } from "../checks/turn-report.ts";
import type { SessionView, SessionViewHead } from "../checks/session-view.ts";
import type { CalledTool } from "../checks/called-tool.ts";
import { toolCallsOfTurns } from "../checks/turn-tool-calls.ts";
import type { ConversationBegin, ConversationEnd, ConversationIdentity } from "./run-event.ts";
import type { ConversationResult, JudgeResult, TurnResult } from "./run-results.ts";
import { executionOfTurn, sessionChange } from "./session-change.ts";
import { storedSummaryOf } from "./stored-summary.ts";

export const NOT_PLAYED = "not played: its test was filtered out (--test-name-pattern) or the run was cut short";
export const NEVER_STARTED = "never started: its suite was filtered out or the run was cut short";

/** What a reducer has heard of one conversation by its end. */
export interface HeardConversation {
  begin?: ConversationBegin;
  reports: TurnReport[];
  final?: FinalReport;
}

const none = (): TokenCount => ({ input: 0, output: 0 });

/** A turn's judge check as the results show it, when the turn had one. */
export function judgeOf(checks: readonly Check[]): JudgeResult | undefined {
  const judge = checks.find((check) => check.contract === "judge");
  if (!judge) return undefined;
  const { verdict } = judge;
  return {
    outcome: judge.outcome,
    ...(verdict ? { score: verdict.score, minScore: verdict.minScore, reason: verdict.reason } : {}),
    ...(judge.message ? { message: judge.message } : {}),
    ...(typeof judge.expected === "string" ? { expected: judge.expected } : {}),
    ...(verdict?.samples ? { samples: verdict.samples, unstable: verdict.unstable === true } : {}),
  };
}

function turnResult(report: TurnReport, before: SessionViewHead | undefined): TurnResult {
  const { stored, answer, ...rest } = report;
  const contentType = report.response?.headers["content-type"];
  const judge = judgeOf(report.checks);
  return {
    ...rest,
    ...(answer !== undefined ? { answer: { text: answer, ...(contentType ? { contentType } : {}) } } : {}),
    ...(stored ? { stored: storedSummaryOf(stored), changed: sessionChange(before, stored) } : {}),
    ...(judge ? { judge } : {}),
  };
}

/**
 * Per turn number, what `read` finds in `document` of the session turn each of `reports` stored: a
 * target that keeps no count of turns cannot say, nor can a turn that stored no new one.
 */
function byStoredTurn<T>(
  reports: readonly TurnReport[],
  document: SessionView | undefined,
  read: (document: SessionView, turns: number) => T | undefined,
): Record<number, T> {
  const found: Record<number, T> = {};
  if (!document) return found;
  let before: number | undefined;
  for (const report of [...reports].sort((a, b) => a.number - b.number)) {
    const turns = report.stored?.turns;
    if (turns !== undefined && turns !== before) {
      const value = read(document, turns);
      if (value !== undefined) found[report.number] = value;
    }
    if (report.stored) before = turns;
  }
  return found;
}

/** Per turn number, the execution entries `document` says each of `reports` wrote. */
export function executionByTurn(
  reports: readonly TurnReport[],
  document: FinalReport["stored"],
): Record<number, NonNullable<ReturnType<typeof executionOfTurn>>> {
  return byStoredTurn(reports, document, executionOfTurn);
}

/**
 * Per turn number, the tools our engine's stored log says each of `reports` called, for those that
 * called any and whose answer did not report them itself.
 */
export function toolCallsByTurn(
  reports: readonly TurnReport[],
  document: FinalReport["stored"],
): Record<number, CalledTool[]> {
  const unreported = reports.filter((report) => report.toolCalls === undefined);
  const callsOf = document && toolCallsOfTurns(document);
  return byStoredTurn(unreported, document, (_stored, turns) => {
    const calls = callsOf!(turns);
    return calls.length ? calls : undefined;
  });
}

function add(into: TokenCount, count: TokenCount | undefined): void {
  into.input += count?.input ?? 0;
  into.output += count?.output ?? 0;
}

/** A conversation that was meant to run, before anything is known of how it went. */
function blank(identity: ConversationIdentity): ConversationResult {
  return {
    id: identity.id,
    file: identity.file,
    name: identity.name,
    ...(identity.flowName !== undefined ? { flowName: identity.flowName } : {}),
    ...(identity.caseLabel ? { caseLabel: identity.caseLabel } : {}),
    ...(identity.tags?.length ? { tags: identity.tags } : {}),
    repeat: identity.repeat,
    outcome: "skipped",
    ran: false,
    reason: NEVER_STARTED,
    pins: {},
    models: {},
    tokens: { model: none(), judge: none() },
    turns: [],
  };
}

/** What the conversation's start, turns and final report add to `result`. */
function addPlayed(result: ConversationResult, heard: HeardConversation, end: ConversationEnd): void {
  const { begin, final } = heard;
  if (begin) {
    Object.assign(result, {
      ran: true,
      startedAt: begin.startedAt,
      pins: { ...begin.target.pins },
      models: { ...begin.target.models },
    });
    result.target = { baseUrl: begin.target.baseUrl, store: begin.target.store };
    delete result.reason;
  }
  for (const report of heard.reports) {
    add(result.tokens.model, report.tokens?.model);
    add(result.tokens.judge, report.tokens?.judge);
    if (report.tokens?.user) add((result.tokens.user ??= none()), report.tokens.user);
  }
  if (final) {
    const {
      stored: _stored,
      simulation,
      conversation: _conversation,
      ...checked
    } = final as FinalReport & {
      conversation?: string;
    };
    result.final = checked;
    if (simulation && end.user) result.simulation = { ...end.user, ...simulation };
  }
  if (end.millis !== undefined) result.millis = end.millis;
  if (end.recorded) result.recorded = end.recorded;
}

/**
 * One conversation's line of run-results.json from its events: every turn of the scenario is in
 * it, those never played skipped saying why.
 */
export function conversationResult(heard: HeardConversation, end: ConversationEnd): ConversationResult {
  const result = blank(end);
  if (!end.ran) {
    Object.assign(result, { outcome: end.outcome, reason: end.reason ?? NEVER_STARTED });
    result.turns = end.planned.map((turn, index) => ({
      number: index + 1,
      label: turn.label,
      input: turn.input,
      outcome: "skipped",
      skipReason: result.reason!,
      checks: [],
    }));
    return result;
  }
  addPlayed(result, heard, end);
  const byNumber = new Map(heard.reports.map((report) => [report.number, report]));
  // A simulated user's turns follow the scenario's own; only the reports know them.
  const simulated = heard.reports.filter((report) => report.number > end.planned.length);
  let before: SessionViewHead | undefined;
  result.turns = [...end.planned, ...simulated].map((turn, index) => {
    const report = byNumber.get(index + 1);
    if (!report)
      return {
        number: index + 1,
        label: turn.label,
        input: turn.input,
        outcome: "skipped",
        skipReason: NOT_PLAYED,
        checks: [],
      };
    const played = turnResult(report, before);
    const execution = end.execution?.[report.number];
    if (execution && played.changed) played.changed.execution = execution;
    const toolCalls = end.toolCalls?.[report.number];
    if (toolCalls && !played.toolCalls) played.toolCalls = toolCalls;
    before = report.stored ?? before;
    return played;
  });
  Object.assign(
    result,
    { outcome: end.outcome },
    end.kind ? { kind: end.kind } : {},
    end.reason !== undefined ? { reason: end.reason } : {},
  );
  return result;
}
