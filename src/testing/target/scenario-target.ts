import type http from "node:http";
import { derivedConfig, environment, type Config } from "../../config.ts";
import type { App } from "../../create-app.ts";
import { FlowcheckError } from "../../errors.ts";
import type { Handler } from "../../http/create-handler.ts";
import type { FlowEntry } from "../../engine/scripted-model.ts";
import type { Cassette } from "../cassette/cassette.ts";
import type { Answer } from "../answer/read-answer.ts";
import type { Check } from "../checks/check.ts";
import type { ChatExchange } from "../client/chat-client.ts";
import type { LoadedScenario, Scenario, ScenarioTurn } from "../scenario/scenario.ts";
import { scenarioEnvOf, scenarioRunSettingsOf } from "../scenario/scenario-env.ts";
import { chooseTarget } from "./choose-target.ts";
import { externalTarget } from "./external-target.ts";
import { httpTarget } from "./http/http-target.ts";
import type { GraphsAsked } from "./langgraph/langgraph-step-names.ts";
import { langgraphTarget } from "./langgraph/langgraph-target.ts";
import { loadTargetConfig, type TargetConfig, type TargetEntry } from "./target-config.ts";
import { inProcessTarget } from "./in-process-target.ts";
import { withJudgeTape } from "./judge-tape.ts";
import type { ModelFaults } from "./model-faults.ts";
import { ProviderGate } from "../limits/provider-gate.ts";
import { RunArbiter } from "../limits/run-arbiter.ts";
import { runLimits, type RunLimits } from "../limits/run-limits.ts";
import type { SessionView, SessionViewHead } from "../checks/session-view.ts";

/** Where the persisted contract reads sessions from: a store, or what a target of another kind says of its sessions. */
export interface SessionReader {
  readonly description: string;
  fetchAll(id: string): Promise<SessionView | undefined>;
  /**
   * The session without its conversation, which is all a turn's checks read; without it they
   * read the whole session, whose cost grows with the conversation.
   */
  fetchHead?(id: string): Promise<SessionViewHead | undefined>;
  /**
   * A value that changes whenever anything is committed to the store, by any writer. Around a turn
   * that expects an error, equal marks prove the store unchanged without reading the session again;
   * without it the whole session is read again and compared.
   */
  writeMark?(): string;
  /**
   * Why the sessions keep no count of turns (a LangGraph thread counts checkpoints, not turns):
   * such a reader's sessions have no `turns`, and the persisted `turns` check is skipped with this
   * reason. Unset: they keep one.
   */
  readonly turnsUnknown?: string;
  /** Why the sessions do not say which flow they run (an http target's state endpoint): the persisted `flow` check is skipped with it. */
  readonly flowUnknown?: string;
}

/** What a target of another kind made of one turn: the exchange, the answer, the session, and its own transport contract. */
export interface ConversationTurn {
  /** The turn's main request and response as on the wire, for the transcript. */
  exchange: ChatExchange;
  /** Its text, and in `json` only the claims the answer makes of the session (`claimsOnly`). */
  answer: Answer;
  /** The session (thread, conversation) the turn was played in; undefined when the answer named none. */
  session: string | undefined;
  /** The kind's transport contract: its status, a stable session id, an answer that reads. */
  checks: Check[];
}

/**
 * How a target that does not speak flowcheck's `/ai/chat` plays a turn. Everything after it (the
 * persisted contract on `sessions`, expectations, judge, report, transcript) is the same code path.
 */
export interface TargetConversation {
  send(turn: ScenarioTurn, session: string | undefined): Promise<ConversationTurn>;
}

/** The server a scenario talks to, and the store its sessions can be re-read from. */
export interface ScenarioTarget {
  readonly baseUrl: string;
  /** The keep-alive connection that the scenario runs on this target share, one after another. */
  readonly agent?: http.Agent;
  /** Undefined when the store cannot be reached; `sessionsUnavailable` says why. */
  readonly sessions: SessionReader | undefined;
  readonly sessionsUnavailable?: string;
  /** The environment pins in force when the app booted, secrets redacted. */
  readonly pins: Readonly<Record<string, string>>;
  /** The model mode of each flow, when the app runs in this process. */
  readonly models?: Readonly<Record<string, string>>;
  /**
   * The configuration the run was read with (the scenario's env defaults applied, for an app in
   * this process). A target of one's own may leave it out: the environment is then read as it is.
   */
  readonly config?: Config;
  /** With FLOW_MODEL=record or replay: the scenario's model and judge calls on tape (a target elsewhere: its judge's alone). */
  readonly cassette?: Cassette;
  /**
   * Boots the app again on the same store, with nothing kept in memory, as a restarted process
   * would: the next turn must resume from what was stored. With `clock`, the scenario's flow's
   * clock reads that instant from then on. Only an app in this process has it.
   */
  restart?(options?: { clock?: string }): Promise<void>;
  /** Makes a chosen model call of the next turn fail (`failModelCall`). Only an app in this process has it. */
  readonly faults?: ModelFaults;
  /** How the scenario's model and judge calls reach their provider, within the run's limits, and the tokens they used. */
  readonly provider?: ProviderGate;
  /** Where a target that runs elsewhere is, in messages: `FLOW_BASE_URL` unless it says, e.g. `target graphs (langgraph)`. */
  readonly elsewhere?: string;
  /** A target of another kind: how a turn is played instead of `POST /ai/chat` at `baseUrl`. */
  readonly conversation?: TargetConversation;
  /**
   * What keeps a target of another kind from serving the scenario (its graph missing, steps it
   * lacks); unset: `GET /ai/flows` tells, as a flowcheck server lists its flows.
   */
  servingProblems?(scenario: Scenario): Promise<string[]>;
  close(): Promise<void>;
}

export interface TargetOptions {
  flows: readonly FlowEntry[];
  /** Where scratch databases go. Default `test/.tmp` under the working directory. */
  scratchDir?: string;
  /** The environment the run is read with (undefined values unset). Default: this process's, read now. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The scenario's configuration, read already from `env` over its env defaults: not read again. */
  config?: Config;
  /**
   * The project's flowcheck.config.json, read once for the run or suite (undefined: there is none).
   * Not given: it is read from the working directory, its references from the run's configuration.
   */
  targets?: TargetConfig | undefined;
  /**
   * The run's limits this conversation's provider requests are held to, counted in the summary the
   * run prints for a suite of its own (`runLimits`). Default: those of an arbiter of the target's own,
   * as a target a spec starts itself has.
   */
  limits?: RunLimits;
  /** The LangGraph graphs the run has asked for their nodes already (default: none, asked again). */
  graphsAsked?: GraphsAsked;
  /**
   * One change to the flows' behaviour for the app in this process to be built with (`flowcheck
   * strength`); a target elsewhere is refused with it (`strength_refused`).
   */
  mutant?: TargetMutant;
}

/** A mutant as the app in this process takes it: the flows it is built with, and the handler it answers with. */
export interface TargetMutant {
  /** Stable across runs; a refusal names it. */
  id: string;
  /** The flows the app is built with, made from the target's own, which are left as they are. */
  flows(entries: readonly FlowEntry[]): FlowEntry[];
  /** The handler the app answers with, made from the app (its own is `app.handler`). */
  handler(app: App): Handler;
}

/**
 * The target of flowcheck.config.json the scenario's `target` or FLOW_TARGET names (`chooseTarget`);
 * else, with `FLOW_BASE_URL` set, the already-running server there. Otherwise the app, booted in this
 * process on 127.0.0.1 with an ephemeral port and a SQLite file of its own (or, with
 * SESSION_STORE=MONGO, MongoDB), configured with the scenario's `env` defaults under the
 * environment (a value already set wins). Such a target can be restarted. Neither writes the
 * environment, and a scenario whose `env` sets a run setting starts neither (`scenario_invalid`).
 * A `mutant` is applied by the app in this process; any other target is refused (`strength_refused`).
 */
export async function startScenarioTarget(loaded: LoadedScenario, options: TargetOptions): Promise<ScenarioTarget> {
  const scenarioEnv = scenarioEnvOf(loaded);
  const scenarioKeys = Object.keys(scenarioEnv);
  // Read only when a configuration is to be derived from it: one given is not read again.
  const source = () => options.env ?? environment();
  const config = options.config ?? derivedConfig(source(), { defaults: scenarioEnv });
  const label = `${loaded.scenario.flowName}: ${loaded.name}`;
  const limits = options.limits ?? runLimits(new RunArbiter(), false);
  const gate = (of: Config) => new ProviderGate(of, label, limits);
  const targets = "targets" in options ? options.targets : loadTargetConfig(process.cwd(), config.env);
  const chosen = chooseTarget(targets, loaded.scenario.target, config.flowTarget, loaded.file);
  if (options.mutant && (chosen || config.targetUrl)) throw refusedMutant(options.mutant, chosen?.name, config);
  if (chosen) {
    const own = derivedConfig(source(), { defaults: scenarioRunSettingsOf(loaded) });
    const asked = options.graphsAsked ?? new WeakMap();
    return await withJudgeTape(await namedTarget(chosen, loaded, own, scenarioKeys, gate, asked), loaded, own);
  }
  if (!config.targetUrl) return await inProcessTarget(loaded, options, config, scenarioKeys, gate(config));
  // A server elsewhere booted with its own environment: the flow's settings cannot reach it, and only the run settings reach this runner.
  const own = derivedConfig(source(), { defaults: scenarioRunSettingsOf(loaded) });
  return { ...(await externalTarget(config.targetUrl, own, scenarioKeys)), provider: gate(own) };
}

/** A mutant is built into the app in this process, so a flow served elsewhere cannot be given one. */
function refusedMutant(mutant: TargetMutant, target: string | undefined, config: Config): FlowcheckError {
  const [where, fix] =
    target === undefined
      ? [`the server at FLOW_BASE_URL (${config.targetUrl})`, "unset FLOW_BASE_URL"]
      : [`target ${target} of flowcheck.config.json`, `unset FLOW_TARGET, or drop the scenario's "target"`];
  return new FlowcheckError(
    "strength_refused",
    `Mutant ${mutant.id} cannot run against ${where}: a mutant runs only against flows in this process, ` +
      `whose app is built from the mutated definition. To measure the scenarios' strength, ${fix} so the flows boot here.`,
  );
}

/** A target of flowcheck.config.json: a flowcheck server at its baseUrl (its SQLite file read), a LangGraph server, or a team's own http API. */
async function namedTarget(
  { name, entry }: { name: string; entry: TargetEntry },
  loaded: LoadedScenario,
  own: Config,
  scenarioKeys: readonly string[],
  gate: (config: Config) => ProviderGate,
  asked: GraphsAsked,
): Promise<ScenarioTarget> {
  const elsewhere = `target ${name} (${entry.kind})`;
  if (entry.kind === "langgraph")
    return { ...langgraphTarget(entry, name, loaded.scenario.flowName, own, gate(own), asked), elsewhere };
  if (entry.kind === "http") return { ...httpTarget(entry, name, loaded.scenario.flowName, own, gate(own)), elsewhere };
  // The entry's headers and SQLite file over the run's own, as FLOW_HEADERS and SQLITE_PATH would give them.
  const config: Config = {
    ...own,
    requestHeaders: { ...own.requestHeaders, ...entry.headers },
    sqlitePath: entry.sqlitePath ?? own.sqlitePath,
    ...(entry.timeoutMs === undefined ? {} : { turnTimeoutMs: entry.timeoutMs }),
  };
  return {
    ...(await externalTarget(entry.baseUrl, config, scenarioKeys)),
    provider: gate(config),
    elsewhere,
  };
}
