import { randomUUID } from "node:crypto";
import { FlowcheckError, isFlowcheckError } from "../errors.ts";
import type { Clock } from "./clock.ts";
import type { FlowDefinition } from "./flow.ts";
import { KeyedMutex } from "./keyed-mutex.ts";
import type { LoopbackGuard } from "./loopback-guard.ts";
import type { ModelFactory } from "./model-factory.ts";
import { RecentConversations } from "./recent-conversations.ts";
import { renderSession } from "./render-session.ts";
import { RunRecorder } from "./run-recorder.ts";
import { runTurn } from "./run-turn.ts";
import {
  SESSION_DOCUMENT_VERSION,
  type RunStatus,
  type SessionDocument,
  type SessionHead,
} from "./session-document.ts";
import type { SessionStore } from "./session-store.ts";
import { staleStepError } from "./stale-step-error.ts";
import { TurnKeys, type KeptKey, type TurnKey } from "./turn-keys.ts";

export interface ChatRequest {
  /** Required to start a session; when given with a session it must be the session's flow. */
  flow?: string;
  session?: string;
  message: string;
}

export interface TurnOutcome {
  session: string;
  response: string;
  currentStep: string;
  runStatus: RunStatus;
  completed: boolean;
  /** True when the stored session could not be read and this turn started a new one in its place. */
  reset?: true;
}

/**
 * What a caller makes of a turn's outcome, before the turn is saved: `render` gives the session
 * after the turn in a media type its flow renders (undefined for one it does not).
 */
export type MakeAnswer<A> = (outcome: TurnOutcome, render: (mediaType: string) => string | undefined) => A | Promise<A>;

/** How one turn is answered, and for a keyed turn, where its answer is kept. */
interface TurnPlan<A> {
  make: MakeAnswer<A>;
  kept?: KeptKey;
}

const outcomeItself = (outcome: TurnOutcome): TurnOutcome => outcome;

export interface FlowSummary {
  name: string;
  description: string;
  steps: string[];
}

export interface FlowEngineOptions {
  flows: readonly FlowDefinition[];
  store: SessionStore;
  /** Every step's chat model, as the app composed it from the flows' model modes. */
  modelOf: ModelFactory;
  clockOf(flow: string): Clock;
  /** For an app whose flows all run scripted or replayed: every turn runs under it, so none reaches past loopback. */
  guard?: LoopbackGuard | undefined;
  /** What steps read as `context.env`. Default: nothing. */
  env?: Readonly<Record<string, string>>;
}

// Sessions kept in memory between their turns: enough for every conversation a test run or a busy
// server has going at once; a session beyond it is read from the store on its next turn.
const RECENT_SESSIONS = 1000;

/** Applies chat turns to sessions: load, run the turn, save it whole. Knows nothing of HTTP. */
export class FlowEngine {
  readonly #flows = new Map<string, FlowDefinition>();
  readonly #store: SessionStore;
  readonly #modelOf: ModelFactory;
  readonly #guard: LoopbackGuard | undefined;
  readonly #clockOf: (flow: string) => Clock;
  readonly #env: Readonly<Record<string, string>>;
  readonly #sessions = new KeyedMutex();
  readonly #recent: RecentConversations;
  readonly #keys: TurnKeys;

  constructor(options: FlowEngineOptions) {
    for (const flow of options.flows) {
      if (this.#flows.has(flow.name)) {
        throw new FlowcheckError("flow_invalid", `Two flows are named "${flow.name}"; flow names must be unique.`);
      }
      this.#flows.set(flow.name, flow);
    }
    this.#store = options.store;
    this.#modelOf = options.modelOf;
    this.#guard = options.guard;
    this.#clockOf = options.clockOf;
    this.#env = options.env ?? {};
    this.#recent = new RecentConversations(RECENT_SESSIONS);
    this.#keys = new TurnKeys(options.store);
  }

  get store(): SessionStore {
    return this.#store;
  }

  listFlows(): FlowSummary[] {
    return [...this.#flows.values()].map((flow) => ({
      name: flow.name,
      description: flow.description,
      steps: [...flow.stepNames],
    }));
  }

  flow(name: string): FlowDefinition {
    const flow = this.#flows.get(name);
    if (!flow) {
      throw new FlowcheckError(
        "unknown_flow",
        `There is no flow "${name}". The flows are: ${[...this.#flows.keys()].join(", ")}.`,
      );
    }
    return flow;
  }

  fetchAll(id: string): Promise<SessionDocument | undefined> {
    return this.#store.fetchAll(id);
  }

  /** The session rendered as `mediaType` by its flow's renderer; undefined when the flow has none. */
  async render(id: string, mediaType: string): Promise<string | undefined> {
    const head = await this.#store.fetchHead(id);
    return head && renderSession(this.flow(head.flow.name), head, [mediaType])?.body;
  }

  /**
   * Turns on one session are applied one after another, in arrival order, never interleaved. A bad
   * request (no flow, unknown flow) rejects rather than throwing synchronously.
   */
  chat(request: ChatRequest): Promise<TurnOutcome> {
    return this.#route(request, { make: outcomeItself });
  }

  /**
   * Applies a turn, as `chat` does, and answers with what `make` makes of it before it is saved.
   * Under a client's `key` that answer is saved with the turn, and a request under the same key
   * gets it again (`key.replay`) instead of being applied again (TurnKeys says how).
   */
  answer<A>(request: ChatRequest, make: MakeAnswer<A>, key?: TurnKey<A>): Promise<A> {
    if (key === undefined) return this.#route(request, { make });
    return this.#keys.once(request, key, (kept) => this.#route(request, { make, kept }));
  }

  #route<A>(request: ChatRequest, plan: TurnPlan<A>): Promise<A> {
    if (request.session === undefined) {
      if (request.flow === undefined) {
        return Promise.reject(
          new FlowcheckError(
            "invalid_request",
            `Starting a session needs "flow". The flows are: ${[...this.#flows.keys()].join(", ")}.`,
          ),
        );
      }
      let flow: FlowDefinition;
      try {
        flow = this.flow(request.flow);
      } catch (error) {
        return Promise.reject(error);
      }
      return this.#start(flow, request.message, plan);
    }
    const id = request.session;
    // Not async, like the mutex's fast path: the promise a turn on a session waits for is the
    // turn's own, with no layer around it.
    return this.#sessions.run(id, () =>
      // Another process saved the session first: the turn is played again on what it saved, once.
      this.#continue(id, request, plan).catch((error: unknown) => {
        if (!isFlowcheckError(error, "session_conflict")) throw error;
        return this.#continue(id, request, plan);
      }),
    );
  }

  async #start<A>(flow: FlowDefinition, message: string, plan: TurnPlan<A>): Promise<A> {
    const now = new Date().toISOString();
    const document: SessionDocument = {
      id: randomUUID(),
      version: SESSION_DOCUMENT_VERSION,
      turns: 0,
      flow: { name: flow.name, currentStep: flow.firstStep },
      runStatus: "running",
      steps: {},
      children: [],
      createdAt: now,
      updatedAt: now,
      memory: {},
      execution: [],
    };
    // `return await`, here and below: an async function that returns a promise unawaited pays for
    // an extra promise and tick to adopt it.
    return await this.#apply(
      flow,
      document,
      message,
      this.#store.changeMark?.(),
      (write) => this.#store.create(write),
      plan,
    );
  }

  async #continue<A>(id: string, request: ChatRequest, plan: TurnPlan<A>): Promise<A> {
    // Read before anything else: a write by someone else after this point makes the next turn look.
    const mark = this.#store.changeMark?.();
    let document: SessionDocument | undefined;
    let flow: FlowDefinition;
    try {
      const recent = this.#recent.take(id);
      if (recent && recent.mark !== undefined && recent.mark === mark) {
        // Nothing has been written to the store by anyone else since this process saved the session.
        document = this.#continuable(id, request, recent.document);
      } else {
        // The head says whether the turn may run, and whether the conversation saved last is still
        // the stored one; only when it is not is the whole conversation read.
        const head = this.#continuable(id, request, await this.#store.fetchHead(id));
        document =
          recent?.document.turns === head.turns
            ? { ...head, memory: recent.document.memory, execution: recent.document.execution }
            : this.#continuable(id, request, await this.#store.fetchAll(id));
      }
      flow = this.flow(document.flow.name);
      const stale = staleStepError(flow, document);
      if (stale) throw stale;
    } catch (error) {
      if (!isFlowcheckError(error, "session_unreadable")) throw error;
      return this.#reset(id, request, error, plan);
    }
    return await this.#apply(flow, document, request.message, mark, (write) => this.#store.saveTurn(write), plan);
  }

  /** The session, when a turn may be applied to it; otherwise the error that says why not. */
  #continuable<T extends SessionHead>(id: string, request: ChatRequest, session: T | undefined): T {
    if (!session) {
      throw new FlowcheckError(
        "session_not_found",
        `There is no session "${id}". Start a new one by sending "flow" and no session id.`,
      );
    }
    if (request.flow !== undefined && request.flow !== session.flow.name) {
      throw new FlowcheckError(
        "invalid_request",
        `Session "${id}" belongs to ${session.flow.name}, not ${request.flow}. Drop "flow", or start a new session for ${request.flow}.`,
      );
    }
    if (session.runStatus !== "running") {
      throw new FlowcheckError(
        "flow_completed",
        `Session "${id}" of ${session.flow.name} has ended (runStatus ${session.runStatus}); start a new session to talk again.`,
      );
    }
    return session;
  }

  /**
   * The stored session cannot be read (a version this code does not know, or damaged): it is kept
   * as it is, and the message starts a new session of the same flow, whose id the answer carries.
   */
  async #reset<A>(id: string, request: ChatRequest, error: FlowcheckError, plan: TurnPlan<A>): Promise<A> {
    const { flow: stored, reason } = error.details as { flow?: string; reason: string };
    const name = request.flow ?? (stored !== undefined && this.#flows.has(stored) ? stored : undefined);
    if (name === undefined) {
      throw new FlowcheckError(
        "invalid_request",
        `Session "${id}" cannot be read by this version (${reason}) and names no flow of this server; ` +
          `send "flow" to start a new session in its place.`,
      );
    }
    const make: MakeAnswer<A> = (outcome, render) => plan.make({ ...outcome, reset: true }, render);
    return await this.#start(this.flow(name), request.message, { ...plan, make });
  }

  async #apply<A>(
    flow: FlowDefinition,
    document: SessionDocument,
    message: string,
    /** The store's change mark from before the session was read; this process's own save leaves it as it is. */
    mark: number | undefined,
    save: (write: Parameters<SessionStore["saveTurn"]>[0]) => Promise<void>,
    plan: TurnPlan<A>,
  ): Promise<A> {
    const turn = document.turns + 1;
    const run = new RunRecorder(flow, turn, {
      currentStep: document.flow.currentStep,
      runStatus: document.runStatus,
      steps: document.steps,
      memory: document.memory,
      execution: document.execution,
      children: document.children,
    });
    const blocked: string[] = [];
    const play = () =>
      runTurn(run, message, {
        modelOf: this.#modelOf,
        rootFlow: flow.name,
        clockOf: this.#clockOf,
        env: this.#env,
      });
    const response = await (this.#guard ? this.#guard.run(blocked, play) : play());
    if (blocked.length) {
      // Failed loudly even when the flow's code caught the refused connection and went on.
      throw new FlowcheckError(
        "network_blocked",
        `${flow.name}/${run.currentStep} tried to reach ${[...new Set(blocked)].join(", ")}, which is not loopback; ` +
          "in the scripted and replay modes nothing leaves this machine. " +
          "The turn was not applied: give the code a local stand-in, or run it with FLOW_MODEL=live.",
      );
    }
    const head: SessionHead = {
      id: document.id,
      version: SESSION_DOCUMENT_VERSION,
      turns: turn,
      flow: { name: flow.name, currentStep: run.currentStep },
      runStatus: run.runStatus,
      steps: run.steps,
      children: run.children,
      createdAt: document.createdAt,
      updatedAt: new Date().toISOString(),
    };
    const made = answerBeforeSaving(flow, head, response, plan.make);
    const answer = made instanceof Promise ? await made : made;
    const keep = plan.kept ? { answer: { ...plan.kept, answer } } : {};
    await save({
      head,
      baseTurns: document.turns,
      memory: run.memoryAppends,
      execution: run.executionAppends,
      ...keep,
    });
    this.#recent.keep({ document: { ...head, memory: run.memory, execution: run.execution }, mark });
    return answer;
  }
}

/** The caller's answer to a turn, made from the session as the turn leaves it, before it is saved. */
function answerBeforeSaving<A>(
  flow: FlowDefinition,
  head: SessionHead,
  response: string,
  make: MakeAnswer<A>,
): A | Promise<A> {
  const outcome: TurnOutcome = {
    session: head.id,
    response,
    currentStep: head.flow.currentStep,
    runStatus: head.runStatus,
    completed: head.runStatus === "completed",
  };
  // A copy of the state: what a renderer does to it must not reach the save. One that throws fails
  // the turn before it is saved, so it never hides an applied turn.
  const render = (mediaType: string) =>
    renderSession(flow, { ...head, steps: structuredClone(head.steps) }, [mediaType])?.body;
  return make(outcome, render);
}
