import type { FlowDefinition } from "../../engine/flow.ts";
import type { FinalReport, TurnReport } from "../checks/turn-report.ts";
import type { ScenarioEvent } from "../run/scenario-event.ts";
import type { FlowOutline } from "../scenario/meaning-problems.ts";
import type { LoadedScenario } from "../scenario/scenario.ts";
import { scenarioLocation } from "../scenario/scenario-location.ts";
import { executionByTurn, judgeOf, NEVER_STARTED, NOT_PLAYED, toolCallsByTurn } from "./conversation-result.ts";
import { addReachedToCoverage, addToCoverage, type FlowCoverage } from "./flow-coverage.ts";
import type { ConversationBegin, ConversationEnd, ConversationIdentity, RunEvent } from "./run-event.ts";
import type { RunRecord } from "./run-record.ts";
import { withoutSecrets } from "./without-secrets.ts";

type Identified = Pick<LoadedScenario, "file" | "name"> & Partial<LoadedScenario>;

/** Which conversation `loaded`'s `repeat` is, as the run's events and results name it. */
export function identityOf(loaded: Identified, repeat: ConversationIdentity["repeat"]): ConversationIdentity {
  const user = loaded.scenario?.user;
  const finalLocation = loaded.lines && scenarioLocation(loaded as LoadedScenario, undefined);
  return {
    id: `${loaded.file}#${loaded.name}${repeat.of > 1 ? `@${repeat.index}` : ""}`,
    file: loaded.file,
    name: loaded.name,
    ...(loaded.scenario ? { flowName: loaded.scenario.flowName } : {}),
    ...(loaded.caseLabel ? { caseLabel: loaded.caseLabel } : {}),
    ...(loaded.scenario?.tags?.length ? { tags: loaded.scenario.tags } : {}),
    repeat,
    planned: (loaded.scenario?.turns ?? []).map((turn, index) => {
      const location = loaded.lines && scenarioLocation(loaded as LoadedScenario, index);
      return { label: turn.label, input: turn.input, ...(location ? { location } : {}) };
    }),
    ...(finalLocation ? { finalLocation } : {}),
    ...(loaded.scenario?.description ? { description: loaded.scenario.description } : {}),
    ...(user ? { user: { persona: user.persona, goal: user.goal, style: user.style ?? "cooperative" } } : {}),
  };
}

/**
 * A conversation that never starts, told at once: a suite skipped (`skipped`) or a scenario file
 * that does not load (`failed`, without a scenario to list the turns of).
 */
export function notRunEvent(
  loaded: Identified,
  outcome: "skipped" | "failed",
  reason: string,
  repeat: ConversationIdentity["repeat"] = { index: 1, of: 1 },
): RunEvent {
  return { type: "conversation:end", data: { ...identityOf(loaded, repeat), outcome, reason, ran: false } };
}

/** What a conversation's coverage is measured on: its flow's definition, or the outline a target of another kind lists. */
export type CoverageSource = { flow: FlowDefinition } | { outline: FlowOutline } | undefined;

/** How a conversation that started went: failed if a turn, a judge or the final state failed; skipped if no turn was played. */
function endOf(
  reports: readonly TurnReport[],
  final: FinalReport | undefined,
): Pick<ConversationEnd, "outcome" | "reason" | "kind"> {
  const failedTurn = reports.find((report) => report.outcome === "failed");
  const failedFinal = final?.outcome === "failed" ? final : undefined;
  if (failedTurn || failedFinal)
    return { outcome: "failed", kind: "contract", reason: (failedTurn?.failure ?? failedFinal?.failure)! };
  for (const report of reports) {
    const judge = judgeOf(report.checks);
    if (judge?.outcome !== "failed") continue;
    const why = judge.message ?? "the judge failed it";
    return { outcome: "failed", kind: "semantic", reason: `turn ${report.number} '${report.label}': ${why}` };
  }
  if (reports.every((report) => report.outcome === "skipped"))
    return { outcome: "skipped", reason: reports.find((report) => report.number === 1)?.skipReason ?? NOT_PLAYED };
  return { outcome: "passed" };
}

/**
 * Turns one conversation's scenario events into the run's events, secrets redacted, and tells
 * its end when it ends, or when the run closes first (a suite filtered out or cut short).
 */
export class ConversationEvents {
  readonly #identity: ConversationIdentity;
  readonly #run: RunRecord | undefined;
  readonly #sink: ((event: RunEvent) => void) | undefined;
  readonly #secrets: readonly string[];
  readonly #coverage: CoverageSource;
  readonly #open: { settle(): void };
  readonly #reports: TurnReport[] = [];
  /** A target of another kind logs no execution: the steps its turns were stored on are what it reached. */
  readonly #reached = new Set<string>();
  #begin: ConversationBegin | undefined;
  #started = 0;
  #final: FinalReport | undefined;
  #reach: FlowCoverage | undefined;
  #ended: Partial<ConversationEnd> = {};
  #done = false;
  #outcome: ConversationEnd["outcome"] | undefined;

  /** `secrets` (a target's header values, see `secretValuesOf`) reach no event, whatever echoed them. */
  constructor(
    loaded: LoadedScenario,
    run: RunRecord | undefined,
    options: {
      repeat?: ConversationIdentity["repeat"];
      secrets?: readonly string[];
      coverage?: CoverageSource;
      /** Also handed every event, in or out of a run: the conversation's transcript. */
      sink?: (event: RunEvent) => void;
    } = {},
  ) {
    this.#identity = identityOf(loaded, options.repeat ?? { index: 1, of: 1 });
    this.#run = run;
    this.#sink = options.sink;
    this.#secrets = options.secrets ?? [];
    this.#coverage = options.coverage;
    this.#open = run?.keepOpen({ closing: () => this.#endEvent() }) ?? { settle: () => undefined };
  }

  /** How the conversation ended, once it has. */
  get outcome(): ConversationEnd["outcome"] | undefined {
    return this.#outcome;
  }

  /** A conversation that could not start (its target did not boot, or does not serve its flow). */
  notStarted(reason: string): void {
    this.#ended = { outcome: "failed", reason };
    this.#end();
  }

  readonly listener = (event: ScenarioEvent): void => {
    if (!this.#run && !this.#sink) return;
    switch (event.type) {
      case "scenario:start":
        this.#started = performance.now();
        this.#begin = { ...this.#identity, startedAt: new Date().toISOString(), target: event.target };
        this.#emit({ type: "conversation:begin", data: this.#begin });
        break;
      case "turn:end":
        this.#turn(event.report);
        break;
      case "final":
        this.#final = event.report;
        this.#reach = this.#reachOf(event.report);
        this.#emit({ type: "final", data: { conversation: this.#identity.id, ...event.report } });
        break;
      case "scenario:end":
        this.#ended = {
          millis: performance.now() - this.#started,
          ...(event.recorded ? { recorded: event.recorded } : {}),
        };
        this.#end();
        break;
    }
  };

  #turn(report: TurnReport): void {
    this.#reports.push(report);
    if (report.stored) this.#reached.add(report.stored.flow.currentStep);
    const conversation = this.#identity.id;
    this.#emit({ type: "turn", data: { conversation, ...report } });
    const judge = judgeOf(report.checks);
    if (judge)
      this.#emit({ type: "judge", data: { conversation, turn: report.number, label: report.label, ...judge } });
  }

  #reachOf(final: FinalReport): FlowCoverage | undefined {
    const source = this.#coverage;
    if (!source) return undefined;
    const coverage: FlowCoverage = {};
    if ("flow" in source) {
      if (!final.stored) return undefined;
      addToCoverage(coverage, source.flow, final.stored);
    } else
      addReachedToCoverage(
        coverage,
        source.outline,
        this.#reached,
        this.#reports.flatMap((report) => report.toolCalls ?? []),
      );
    return coverage;
  }

  #emit(event: RunEvent): void {
    this.#tell(withoutSecrets(event, this.#secrets));
  }

  #tell(event: RunEvent): void {
    this.#run?.emit(event);
    this.#sink?.(event);
  }

  /** Tells the conversation's end, once: a suite that did not start still ends. */
  #end(): void {
    if (this.#done) return;
    this.#done = true;
    const end = this.#endEvent();
    if (end.type === "conversation:end") this.#outcome = end.data.outcome;
    this.#tell(end);
    this.#open.settle();
  }

  #endEvent(): RunEvent {
    const identity = this.#identity;
    if (!this.#begin) {
      const { outcome = "skipped", reason = NEVER_STARTED } = this.#ended;
      return withoutSecrets(
        { type: "conversation:end", data: { ...identity, outcome, reason, ran: false } },
        this.#secrets,
      );
    }
    const execution = executionByTurn(this.#reports, this.#final?.stored);
    const toolCalls = toolCallsByTurn(this.#reports, this.#final?.stored);
    const data: ConversationEnd = {
      ...identity,
      ...endOf(this.#reports, this.#final),
      ran: true,
      ...this.#ended,
      ...(Object.keys(execution).length ? { execution } : {}),
      ...(Object.keys(toolCalls).length ? { toolCalls } : {}),
      ...(this.#reach ? { coverage: this.#reach } : {}),
    };
    return withoutSecrets({ type: "conversation:end", data }, this.#secrets);
  }
}
