import { randomUUID } from "node:crypto";
import { answerChecks } from "../checks/answer-checks.ts";
import { check, failed, skipped, type Check } from "../checks/check.ts";
import type { ChatExchange } from "../client/chat-client.ts";
import { expectationChecks } from "../checks/expectation-checks.ts";
import { persistedChecks } from "../checks/persisted-checks.ts";
import type { Answer } from "../answer/read-answer.ts";
import { redactHeaders } from "../client/redact-headers.ts";
import type { LoadedScenario, ScenarioTurn } from "../scenario/scenario.ts";
import { isSuccessStatus } from "../scenario/is-success-status.ts";
import { scenarioLocation } from "../scenario/scenario-location.ts";
import { modelFaultKey, modelFaultOf } from "../scenario/model-fault-of.ts";
import type { ScenarioTarget, TargetCapabilities } from "../target/scenario-target.ts";
import type { ConversationTurn, TargetConversation } from "../target/target-conversation.ts";
import { viewHeadOf, type SessionView, type SessionViewHead } from "../checks/session-view.ts";
import { eachTurnCheck } from "../checks/domain-check.ts";
import type { FinalReport, SimulationReport, TurnReport } from "../checks/turn-report.ts";
import { clientOptions, type RunOptions } from "./run-options.ts";
import { finalReport } from "./final-report.ts";
import { faultsMissing } from "./faults-missing.ts";
import { restartCheck } from "./restart-check.ts";
import type { ScenarioEvent } from "./scenario-event.ts";
import { simulateUser } from "./simulate-user.ts";
import { readAfterTurn, readBeforeTurn } from "./session-reads.ts";
import { turnFailure } from "./turn-failure.ts";
import type { UsageMeter } from "../limits/usage-meter.ts";
import { latencyCheck, tokenChecks } from "../checks/budget-checks.ts";
import { toolCallsCheck } from "../checks/tool-calls-check.ts";
import { turnToolCalls } from "../checks/turn-tool-calls.ts";
import { refusalOf, type RefusedDetails } from "../target/request-target.ts";
import type { SeamConversation } from "../seam/seam-conversation.ts";
import { inputText } from "../scenario/turn-input.ts";

/** A turn sent and answered, and the model calls it made under its model fault. */
type SentTurn = ConversationTurn & { modelCalls?: number };

const NO_JUDGE = "no LLM judge is configured in this run, so expectedResponse is not graded";

/** Whether the turn made the model call that its `modelFault` (or `failModelCall`) was to fail. */
function modelFaultCheck(turn: ScenarioTurn, modelCalls: number): Check {
  const { call, kind } = modelFaultOf(turn)!;
  return check(
    "expectation",
    modelFaultKey(turn),
    modelCalls >= call
      ? undefined
      : `the turn made ${modelCalls} model call${modelCalls === 1 ? "" : "s"}, so call ${call} never got its "${kind}" fault; ` +
          "pick a call the turn makes",
  );
}

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Plays a scenario against a target one turn at a time and checks every contract. Each step is an
 * event, so the node:test integration, the transcript writer and any report consume one stream.
 */
export class ScenarioRun {
  readonly loaded: LoadedScenario;
  readonly reports: TurnReport[] = [];
  readonly #target: ScenarioTarget;
  readonly #can: TargetCapabilities;
  readonly #conversation: TargetConversation;
  readonly #options: RunOptions;
  readonly #listeners: ((event: ScenarioEvent) => void)[] = [];
  #session: string | undefined;
  #stored: SessionViewHead | undefined;
  /** The whole session as read right after the last turn played, when that turn read it whole. */
  #lastWhole: { turns: number; document: SessionView } | undefined;
  #final: FinalReport | undefined;
  #failedTurn: TurnReport | undefined;
  /** Each turn as it is played (or skipped), once, whoever asks for it first. */
  readonly #turns: Promise<TurnReport>[] = [];
  /** Every turn to play: the scenario's, then each message its simulated user wrote, as it wrote it. */
  readonly #script: ScenarioTurn[];
  /** The simulated user's turns, by the turn the user wrote. */
  readonly #simulated = new Map<ScenarioTurn, NonNullable<TurnReport["simulated"]>>();
  #simulation: Promise<SimulationReport | undefined> | undefined;
  #finished: Promise<FinalReport> | undefined;
  /** Each turn's Idempotency-Key is this and its number: unique to the turn, the same for each sending of it. */
  readonly #keyPrefix = randomUUID();
  #usageBefore: ReturnType<UsageMeter["snapshot"]> | undefined;
  /** The target's origin, which a request's path is under unless the conversation gives its whole URL. */
  readonly #origin: string;

  constructor(loaded: LoadedScenario, target: ScenarioTarget, options: RunOptions = {}) {
    this.loaded = loaded;
    this.#target = target;
    this.#can = target.capabilities ?? {};
    this.#conversation = target.converse({ flowName: loaded.scenario.flowName, ...clientOptions(options) });
    this.#options = options;
    this.#script = [...loaded.scenario.turns];
    this.#origin = URL.canParse(target.description.baseUrl) ? new URL(target.description.baseUrl).origin : "";
  }

  get session(): string | undefined {
    return this.#session;
  }

  /** The first failed turn, if any. Asked before every turn, so kept rather than searched for. */
  get failedTurn(): TurnReport | undefined {
    return this.#failedTurn;
  }

  /** Whether anything failed: a turn's contracts, a judge's verdict, or the final state. */
  get failed(): boolean {
    const judged = this.reports.some((report) =>
      report.checks.some((c) => c.contract === "judge" && c.outcome === "failed"),
    );
    return judged || this.failedTurn !== undefined || this.#final?.outcome === "failed";
  }

  on(listener: (event: ScenarioEvent) => void): this {
    this.#listeners.push(listener);
    return this;
  }

  #emit(event: ScenarioEvent): void {
    for (const listener of this.#listeners) listener(event);
  }

  start(): void {
    const { description, sessions } = this.#target;
    this.#emit({
      type: "scenario:start",
      scenario: this.loaded,
      target: {
        baseUrl: description.baseUrl,
        store: sessions.reader?.description ?? `not read: ${sessions.unavailable}`,
        pins: description.pins,
        ...(description.models ? { models: description.models } : {}),
      },
    });
  }

  /**
   * Turn `index`, after the turns before it (played first when nobody asked for them: a name filter
   * may leave their tests unrun); skipped, saying so, after a failed one. Played once: asking again
   * gives the same report. This is the one play loop: the node:test suites and `runScenario` use it.
   */
  turn(index: number): Promise<TurnReport> {
    return (this.#turns[index] ??= (async () => {
      if (index > 0) await this.turn(index - 1);
      const failed = this.failedTurn;
      return failed ? this.skipTurn(index, `turn ${failed.number} failed`) : await this.playTurn(index);
    })());
  }

  /** Every turn not played yet, the simulated user's conversation, then the final state, once. */
  complete(): Promise<FinalReport> {
    return (this.#finished ??= (async () => {
      await this.simulation();
      return this.finish();
    })());
  }

  /**
   * After the scenario's turns, its simulated user's conversation, played once: undefined for a
   * scenario without a user, or when an opening turn failed (its turns are then not played).
   */
  simulation(): Promise<SimulationReport | undefined> {
    return (this.#simulation ??= (async () => {
      const turns = this.loaded.scenario.turns.length;
      if (turns > 0) await this.turn(turns - 1);
      if (!this.loaded.scenario.user || this.failedTurn) return undefined;
      const { user, userUnavailable } = this.#options;
      return simulateUser({
        scenario: this.loaded.scenario,
        user,
        unavailable: userUnavailable,
        reports: this.reports,
        beforeUser: (turn) => {
          this.#can.cassette?.beginTurn(this.#script.length + 1, `simulated user message ${turn}`);
          this.#usageBefore = this.#can.provider?.usage.snapshot();
        },
        play: (turn, simulated) => {
          this.#simulated.set(turn, simulated);
          const index = this.#script.push(turn) - 1;
          return (this.#turns[index] = this.playTurn(index));
        },
      });
    })());
  }

  /** The simulated user's turns as they were played. */
  get simulatedReports(): TurnReport[] {
    return this.reports.filter((report) => report.simulated !== undefined);
  }

  async playTurn(index: number): Promise<TurnReport> {
    const turn = this.#script[index]!;
    const unfaulted = modelFaultOf(turn) === undefined ? undefined : faultsMissing(this.#target, modelFaultKey(turn));
    // An error turn leaves the session as it was, so the turns after a skipped one still hold.
    if (unfaulted !== undefined) return this.skipTurn(index, unfaulted);
    this.#beginTurn(index, turn);
    const restarted =
      turn.restartBefore || turn.clockAt !== undefined ? await restartCheck(this.#target, turn.clockAt) : undefined;
    if (restarted?.outcome === "failed") return this.#unanswered(index, restarted.message, [restarted]);
    const expectsError = !isSuccessStatus(turn.expectedStatus ?? 200);
    // Only a turn that expects an error reads before it is sent; the others wait for nothing here.
    const before = expectsError ? await readBeforeTurn(this.#target.sessions.reader, this.#session) : {};
    const idempotencyKey = `${this.#keyPrefix}-${index + 1}`;
    const sent = await this.#send(index, turn, idempotencyKey);
    if ("outcome" in sent) return sent;
    const { answer } = sent;
    this.#session ??= sent.session;

    const storeStarted = performance.now();
    const stored = await readAfterTurn(this.#target.sessions.reader, this.#session, expectsError, before);
    const storeMillis = performance.now() - storeStarted;
    const checks = [
      ...(restarted ? [restarted] : []),
      ...sent.checks,
      ...this.#storedChecks(turn, answer, stored, expectsError ? before.document : this.#stored),
    ];
    if (this.#options.eachTurn && !expectsError && stored)
      checks.push(await eachTurnCheck(this.#options.eachTurn, viewHeadOf(stored), turn, this.loaded.scenario));
    if (sent.modelCalls !== undefined) checks.push(modelFaultCheck(turn, sent.modelCalls));
    checks.push(...(await this.#callChecks(index, turn, sent, stored, expectsError)));
    // A judge's verdict is reported on its own and does not stop the conversation: the contracts held.
    const failures = checks.filter((c) => c.outcome === "failed");
    if (turn.expectedResponse !== undefined) checks.push(await this.#verdict(index, turn, answer, failures.length > 0));
    if (stored) this.#stored = viewHeadOf(stored);
    this.#lastWhole =
      expectsError && stored ? { turns: this.reports.length + 1, document: stored as SessionView } : undefined;
    return this.#record({
      number: index + 1,
      label: turn.label,
      input: turn.input,
      answer: answer.text,
      outcome: failures.length ? "failed" : "passed",
      ...(failures.length ? { failure: turnFailure(index + 1, turn.label, failures, answer) } : {}),
      idempotencyKey,
      ...this.#shownExchange(sent.exchange, answer),
      ...(sent.toolCalls ? { toolCalls: sent.toolCalls } : {}),
      ...(this.#stored && stored ? { stored: this.#stored } : {}),
      checks,
      millis: { http: sent.exchange.millis, store: storeMillis },
    });
  }

  /**
   * The turn's tool calls, HTTP time and model tokens against its `expectToolCalls`, `maxLatencyMs`,
   * `maxTokens` and `maxCostUsd`. The tool calls are the answer's, where the target reports them;
   * else they are read from the whole session, only for a turn that expects some: a head holds no log.
   */
  async #callChecks(
    index: number,
    turn: ScenarioTurn,
    sent: SentTurn,
    stored: SessionViewHead | SessionView | undefined,
    expectsError: boolean,
  ): Promise<Check[]> {
    const where = `turn ${index + 1} '${turn.label}'`;
    const millis = sent.exchange.millis;
    const checks = turn.maxLatencyMs === undefined ? [] : [latencyCheck(where, turn.maxLatencyMs, millis)];
    const tokens = this.#usageBefore && this.#can.provider?.usage.since(this.#usageBefore)?.model;
    checks.push(...tokenChecks(where, turn, tokens, this.#can.config?.limits.price));
    if (turn.expectToolCalls === undefined) return checks;
    if (sent.toolCalls !== undefined)
      return [...checks, toolCallsCheck(index + 1, turn.expectToolCalls, sent.toolCalls)];
    const { reader: sessions, unavailable } = this.#target.sessions;
    const unreported =
      this.#conversation.toolCallsUnknown ??
      (sessions ? undefined : `the tools a turn called are read from the store, and ${unavailable}`);
    if (unreported !== undefined) return [...checks, skipped("expectation", "expectToolCalls", unreported)];
    // An error answer stores nothing, so the turn called no tool that counts.
    const document = expectsError || !stored || !this.#session ? undefined : await sessions!.fetchAll(this.#session);
    const called = document?.turns === undefined ? [] : turnToolCalls(document, document.turns);
    return [...checks, toolCallsCheck(index + 1, turn.expectToolCalls, called)];
  }

  /** The judge's verdict on the answer; skipped, saying so, once the turn failed its contracts. */
  async #verdict(index: number, turn: ScenarioTurn, answer: Answer, contractsFailed: boolean): Promise<Check> {
    return contractsFailed
      ? skipped("judge", "expectedResponse", `turn ${index + 1} failed its contracts`)
      : this.#judge(turn, answer);
  }

  /**
   * Labels the turn's calls on the tape, and marks the tokens used so far, for the turn's own; a
   * simulated turn's mark was taken before its user wrote it, so the user's tokens count with it.
   */
  #beginTurn(index: number, turn: ScenarioTurn): void {
    this.#can.cassette?.beginTurn(index + 1, turn.label);
    this.#usageBefore ??= this.#can.provider?.usage.snapshot();
  }

  /**
   * Sends the turn in the target's conversation, with the chosen model call going wrong meanwhile
   * under the turn's model fault (the calls the turn made counted); when the request fails, the
   * failed turn's report instead.
   */
  async #send(index: number, turn: ScenarioTurn, idempotencyKey: string): Promise<SentTurn | TurnReport> {
    const fault = modelFaultOf(turn);
    const { seam } = this.#can;
    if (seam) return await this.#sendAtSeam(seam, index, turn, idempotencyKey);
    const faults = fault && this.#can.faults!;
    if (fault) faults?.arm(fault);
    try {
      const sent = await this.#conversation.send(turn, this.#session, idempotencyKey);
      return faults ? { ...sent, modelCalls: faults.disarm() } : sent;
    } catch (error) {
      return this.#failedRequest(index, error, idempotencyKey);
    } finally {
      faults?.disarm();
    }
  }

  /**
   * Sends the turn to an app whose model is served at the seam: its model calls credited to it
   * there, faulted as it asks; the tools its model asked for are the turn's tool calls, and what
   * went wrong at the seam (a script unmatched, a request it does not speak, a call credited to no
   * turn) fails it, answered or not.
   */
  async #sendAtSeam(
    seam: SeamConversation,
    index: number,
    turn: ScenarioTurn,
    idempotencyKey: string,
  ): Promise<SentTurn | TurnReport> {
    const fault = modelFaultOf(turn);
    await seam.beginTurn({
      number: index + 1,
      label: turn.label,
      input: inputText(turn.input),
      ...(fault && { fault }),
    });
    let sent: ConversationTurn | undefined;
    let error: unknown;
    try {
      sent = await this.#conversation.send(turn, this.#session, idempotencyKey);
    } catch (thrown) {
      error = thrown;
    }
    const { calls, toolCalls, problems } = seam.endTurn();
    const atSeam = problems.map((problem) => failed("transport", "model calls", problem));
    if (!sent) return this.#failedRequest(index, error, idempotencyKey, atSeam);
    // What went wrong at the seam comes first: it is why the app answered as it did.
    return { ...sent, checks: [...atSeam, ...sent.checks], toolCalls, ...(fault && { modelCalls: calls }) };
  }

  /** The report of a turn whose request failed, with what the seam saw go wrong meanwhile. */
  #failedRequest(index: number, error: unknown, idempotencyKey: string, atSeam: Check[] = []): TurnReport {
    const said = (error as Error).message;
    // What went wrong at the seam comes first: it is why the request failed.
    const seam = atSeam.map((check) => check.message!.replace(/\.$/, ""));
    const message = seam.length ? [...seam, `then ${said}`].join("; ") : said;
    const refusal = refusalOf(error);
    const shown = refusal && this.#shownRefusal(refusal);
    const checks = [...atSeam, failed("transport", "request", said)];
    return this.#unanswered(index, message, checks, idempotencyKey, shown);
  }

  /**
   * A turn that failed before it had an answer: a restart that failed, or a request (sent under
   * `idempotencyKey`) that did; `shown`, what was sent and answered, when the target refused it.
   */
  #unanswered(
    index: number,
    message: string | undefined,
    checks: Check[],
    idempotencyKey?: string,
    shown?: Pick<TurnReport, "request" | "response">,
  ): TurnReport {
    const turn = this.#script[index]!;
    const failure = `turn ${index + 1} '${turn.label}': ${message}`;
    return this.#record({
      number: index + 1,
      label: turn.label,
      input: turn.input,
      outcome: "failed",
      failure,
      ...(idempotencyKey ? { idempotencyKey } : {}),
      ...shown,
      checks,
    });
  }

  /** The persisted (or, without a store, the answer's) contract, and the expectations. */
  #storedChecks(
    turn: ScenarioTurn,
    answer: Answer,
    stored: SessionViewHead | SessionView | undefined,
    previous: SessionViewHead | SessionView | undefined,
  ): Check[] {
    const { reader: sessions, unavailable } = this.#target.sessions;
    const simulated = this.#simulated.has(turn);
    const unreadable = sessions ? undefined : unavailable;
    const persisted = sessions
      ? persistedChecks(
          turn,
          this.loaded.scenario.flowName,
          answer,
          stored,
          previous,
          sessions.description,
          this.#session,
          { turns: sessions.turnsUnknown, flow: sessions.flowUnknown, step: sessions.stepUnknown },
          simulated ? { steps: this.#options.steps } : undefined,
        )
      : // A simulated user's turn expects no step or run status for the answer to claim.
        [skipped("persisted", "persisted contract", unreadable!), ...(simulated ? [] : answerChecks(turn, answer))];
    return [...persisted, ...expectationChecks(turn, answer, stored, unreadable, sessions?.keyedBy)];
  }

  /** The turn's request and response as the report shows them: its whole URL, secret headers redacted, bodies parsed. */
  #shownExchange(exchange: ChatExchange, answer: Answer): Pick<TurnReport, "request" | "response"> {
    return {
      request: {
        ...exchange.request,
        url: exchange.request.url ?? `${this.#origin}${exchange.request.path}`,
        headers: redactHeaders(exchange.request.headers, Object.keys(this.#options.headers ?? {})),
        body: parseBody(exchange.request.body),
      },
      response: {
        status: exchange.response.status,
        headers: redactHeaders(exchange.response.headers),
        // A target of another kind's answer is read for its claims alone: its body is shown as it came.
        body:
          answer.events ??
          (answer.claimsOnly ? parseBody(exchange.response.body) : (answer.json ?? exchange.response.body)),
      },
    };
  }

  /** A request the target refused with a status that is not 2xx, shown as an answered turn's exchange is. */
  #shownRefusal(refusal: RefusedDetails): Pick<TurnReport, "request" | "response"> {
    const { method, url, headers, body } = refusal.request;
    const { pathname, search } = new URL(url);
    return {
      request: {
        method,
        url,
        path: `${pathname}${search}`,
        headers: redactHeaders(headers, Object.keys(this.#options.headers ?? {})),
        body: parseBody(body),
      },
      response: { status: refusal.status, headers: redactHeaders(refusal.headers), body: parseBody(refusal.body) },
    };
  }

  /** A promise only when a judge is asked: a run without one (every scripted run) waits for nothing. */
  #judge(turn: ScenarioTurn, answer: Answer): Check | Promise<Check> {
    const { judge, judgeUnavailable = NO_JUDGE, judgeRequired } = this.#options;
    if (judge) return judge({ scenario: this.loaded.scenario, turn, answer, history: this.reports });
    return judgeRequired
      ? failed("judge", "expectedResponse", `JUDGE=required, but ${judgeUnavailable}`)
      : skipped("judge", "expectedResponse", judgeUnavailable);
  }

  skipTurn(index: number, reason: string): TurnReport {
    const turn = this.#script[index]!;
    return this.#record({
      number: index + 1,
      label: turn.label,
      input: turn.input,
      outcome: "skipped",
      skipReason: reason,
      checks: [],
    });
  }

  #record(report: TurnReport): TurnReport {
    // What the turn's model and judge calls used, from their providers' `usage`, when they used any.
    const tokens = this.#usageBefore && this.#can.provider?.usage.since(this.#usageBefore);
    if (tokens) report.tokens = tokens;
    this.#usageBefore = undefined;
    const simulated = this.#simulated.get(this.#script[report.number - 1]!);
    if (simulated) report.simulated = simulated;
    // An unstable verdict is named by its line in the summaries, as a failed turn is.
    const unstable = report.checks.some((check) => check.contract === "judge" && check.verdict?.unstable);
    const location =
      report.outcome === "failed" || unstable ? scenarioLocation(this.loaded, report.number - 1) : undefined;
    if (location) report.location = location;
    this.reports.push(report);
    if (report.outcome === "failed") this.#failedTurn ??= report;
    this.#emit({ type: "turn:end", report });
    return report;
  }

  /** The domain contract on the stored session: the scenario's final expectations and the spec's own checks. */
  async finish(): Promise<FinalReport> {
    // A last turn that read the session whole leaves nothing to read again.
    const last = this.#lastWhole?.turns === this.reports.length ? this.#lastWhole.document : undefined;
    const report = await finalReport(this.loaded, this.#target, this.#options, {
      session: this.#session,
      failedTurn: this.failedTurn,
      last,
      reports: this.reports,
      simulation: await this.#simulation,
    });
    this.#final = report;
    this.#emit({ type: "final", report });
    return report;
  }

  end(): void {
    this.#conversation.close();
    const cassette = this.#can.cassette;
    const recording = cassette?.mode === "record";
    if (recording && cassette.auto && this.failed) cassette.discard();
    this.#emit({
      type: "scenario:end",
      outcome: this.failed ? "failed" : "passed",
      ...(recording ? { recorded: { cassette: cassette.path, saved: cassette.saves } } : {}),
    });
  }
}
