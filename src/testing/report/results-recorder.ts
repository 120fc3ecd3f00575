import type { Check } from "../checks/check.ts";
import type { TokenCount, TurnReport } from "../checks/turn-report.ts";
import type { ScenarioEvent } from "../run/scenario-event.ts";
import type { LoadedScenario } from "../scenario/scenario.ts";
import type { SessionView, SessionViewHead } from "../target/session-view.ts";
import { storedSummaryOf } from "./stored-summary.ts";
import { runRecordFor, type RunRecord } from "./run-record.ts";
import { withoutSecrets } from "./without-secrets.ts";
import type { ConversationResult, JudgeResult, RunRecordLine, TurnResult } from "./run-results.ts";
import { executionOfTurn, sessionChange } from "./session-change.ts";

const NOT_PLAYED = "not played: its test was filtered out (--test-name-pattern) or the run was cut short";
const NEVER_STARTED = "never started: its suite was filtered out or the run was cut short";

const none = (): TokenCount => ({ input: 0, output: 0 });

function judgeOf(checks: readonly Check[]): JudgeResult | undefined {
  const judge = checks.find((check) => check.contract === "judge");
  if (!judge) return undefined;
  const { verdict } = judge;
  return {
    outcome: judge.outcome,
    ...(verdict ? { score: verdict.score, minScore: verdict.minScore, reason: verdict.reason } : {}),
    ...(judge.message ? { message: judge.message } : {}),
  };
}

function turnResult(report: TurnReport, before: SessionViewHead | undefined): TurnResult {
  const { stored, answer, ...rest } = report;
  const contentType = report.response?.headers["content-type"];
  const judge = judgeOf(report.checks);
  return {
    ...rest,
    ...(answer !== undefined ? { answer: { text: answer, ...(contentType ? { contentType } : {}) } } : {}),
    ...(stored
      ? {
          stored: storedSummaryOf(stored),
          changed: sessionChange(before, stored),
        }
      : {}),
    ...(judge ? { judge } : {}),
  };
}

function add(into: TokenCount, count: TokenCount | undefined): void {
  into.input += count?.input ?? 0;
  into.output += count?.output ?? 0;
}

/** How a conversation that ran went: failed if a turn, a judge or the final state failed; skipped if no turn was played. */
function outcomeOf(result: ConversationResult): Pick<ConversationResult, "outcome" | "reason" | "kind"> {
  const failedTurn = result.turns.find((turn) => turn.outcome === "failed");
  const judged = result.turns.find((turn) => turn.judge?.outcome === "failed");
  const final = result.final?.outcome === "failed" ? result.final : undefined;
  if (failedTurn || final)
    return { outcome: "failed", kind: "contract", reason: (failedTurn?.failure ?? final?.failure)! };
  if (judged)
    return {
      outcome: "failed",
      kind: "semantic",
      reason: `turn ${judged.number} '${judged.label}': ${judged.judge!.message ?? "the judge failed it"}`,
    };
  if (result.turns.every((turn) => turn.outcome === "skipped"))
    return { outcome: "skipped", reason: result.turns[0]?.skipReason ?? NOT_PLAYED };
  return { outcome: "passed" };
}

/** A conversation that was meant to run, before anything is known of how it went. */
function blank(
  loaded: Pick<LoadedScenario, "file" | "name"> & Partial<LoadedScenario>,
  repeat: ConversationResult["repeat"],
): ConversationResult {
  return {
    id: `${loaded.file}#${loaded.name}${repeat.of > 1 ? `@${repeat.index}` : ""}`,
    file: loaded.file,
    name: loaded.name,
    ...(loaded.scenario ? { flowName: loaded.scenario.flowName } : {}),
    ...(loaded.caseLabel ? { caseLabel: loaded.caseLabel } : {}),
    ...(loaded.scenario?.tags?.length ? { tags: loaded.scenario.tags } : {}),
    repeat,
    outcome: "skipped",
    ran: false,
    reason: NEVER_STARTED,
    pins: {},
    models: {},
    tokens: { model: none(), judge: none() },
    turns: [],
  };
}

/**
 * Listens to one conversation's events and adds its result to the run's record when it ends, or
 * when the run closes first. Every turn of the scenario is in it:
 * those never played are skipped, saying why.
 */
export class ResultsRecorder {
  readonly #loaded: LoadedScenario;
  readonly #run: RunRecord | undefined;
  readonly #result: ConversationResult;
  readonly #reports: TurnReport[] = [];
  readonly #open: { settle(): void };
  #started = 0;
  /** The whole session at the end, which holds each turn's execution entries. */
  #document: SessionView | undefined;
  #written = false;
  readonly #secrets: readonly string[];

  /** `secrets` (a target's header values, see `secretValuesOf`) are written as `[redacted]`, whatever echoed them. */
  constructor(
    loaded: LoadedScenario,
    artifactsDir: string,
    repeat: ConversationResult["repeat"] = { index: 1, of: 1 },
    secrets: readonly string[] = [],
  ) {
    this.#loaded = loaded;
    this.#secrets = secrets;
    this.#run = runRecordFor(artifactsDir);
    this.#result = blank(loaded, repeat);
    this.#open = this.#run?.keepOpen({ closing: () => this.#line() }) ?? { settle: () => undefined };
  }

  /** A conversation that could not start (its target did not boot, or does not serve its flow): it failed without playing a turn. */
  notStarted(reason: string): void {
    Object.assign(this.#result, { outcome: "failed", ran: false, reason });
    this.#close();
  }

  readonly listener = (event: ScenarioEvent): void => {
    switch (event.type) {
      case "scenario:start":
        this.#started = performance.now();
        Object.assign(this.#result, {
          ran: true,
          startedAt: new Date().toISOString(),
          pins: { ...event.target.pins },
          models: { ...event.target.models },
        });
        this.#result.target = { baseUrl: event.target.baseUrl, store: event.target.store };
        delete this.#result.reason;
        break;
      case "turn:end":
        this.#reports.push(event.report);
        add(this.#result.tokens.model, event.report.tokens?.model);
        add(this.#result.tokens.judge, event.report.tokens?.judge);
        if (event.report.tokens?.user) add((this.#result.tokens.user ??= none()), event.report.tokens.user);
        break;
      case "final": {
        const { stored, simulation, ...final } = event.report;
        this.#result.final = final;
        this.#document = stored;
        const user = this.#loaded.scenario.user;
        if (simulation && user)
          this.#result.simulation = {
            persona: user.persona,
            goal: user.goal,
            style: user.style ?? "cooperative",
            ...simulation,
          };
        break;
      }
      case "scenario:end":
        this.#result.millis = performance.now() - this.#started;
        if (event.recorded) this.#result.recorded = event.recorded;
        this.#close();
        break;
    }
  };

  /** Writes the conversation, once: a suite that did not start still ends. */
  #close(): void {
    if (this.#written) return;
    this.#written = true;
    this.#run?.add(this.#line());
    this.#open.settle();
  }

  /** The conversation as far as it went, every turn of the scenario in it. */
  #line(): RunRecordLine {
    const result = this.#result;
    const document = this.#document;
    let before: SessionViewHead | undefined;
    const scripted = this.#loaded.scenario.turns;
    // A simulated user's turns follow the scenario's own; only the reports know them.
    const simulated = this.#reports.filter((report) => report.number > scripted.length);
    result.turns = [...scripted, ...simulated].map((turn, index) => {
      const report = this.#reports.find((each) => each.number === index + 1);
      if (!report)
        return {
          number: index + 1,
          label: turn.label,
          input: turn.input,
          outcome: "skipped",
          skipReason: result.ran ? NOT_PLAYED : (result.reason ?? NEVER_STARTED),
          checks: [],
        };
      const played = turnResult(report, before);
      // A target that keeps no count of turns cannot say which execution entries a turn wrote.
      const turns = report.stored?.turns;
      if (turns !== undefined && turns !== before?.turns && document && played.changed) {
        const execution = executionOfTurn(document, turns);
        if (execution) played.changed.execution = execution;
      }
      before = report.stored ?? before;
      return played;
    });
    if (result.ran) Object.assign(result, outcomeOf(result));
    return { conversation: withoutSecrets(result, this.#secrets) };
  }
}

/**
 * A conversation that never starts, written at once: a suite skipped (`skipped`) or a scenario
 * file that does not load (`failed`, without a scenario to list the turns of).
 */
export function noteNotRun(
  loaded: Pick<LoadedScenario, "file" | "name"> & Partial<LoadedScenario>,
  artifactsDir: string,
  outcome: "skipped" | "failed",
  reason: string,
  repeat: ConversationResult["repeat"] = { index: 1, of: 1 },
): void {
  const result = { ...blank(loaded, repeat), outcome, reason };
  result.turns = (loaded.scenario?.turns ?? []).map((turn, index) => ({
    number: index + 1,
    label: turn.label,
    input: turn.input,
    outcome: "skipped",
    skipReason: reason,
    checks: [],
  }));
  runRecordFor(artifactsDir)?.add({ conversation: result });
}
