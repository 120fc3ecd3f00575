import { derivedConfig, environment, type Config } from "../../config.ts";
import type { App } from "../../create-app.ts";
import { FlowcheckError } from "../../errors.ts";
import type { Handler } from "../../http/create-handler.ts";
import type { FlowEntry } from "../../engine/scripted-model.ts";
import type { Cassette } from "../cassette/cassette.ts";
import type { SeamConversation } from "../seam/seam-conversation.ts";
import type { ChatClientOptions } from "../client/chat-client.ts";
import type { LoadedScenario, Scenario } from "../scenario/scenario.ts";
import { scenarioEnvOf, scenarioRunSettingsOf } from "../scenario/scenario-env.ts";
import { aiSdkTarget } from "./ai-sdk/ai-sdk-target.ts";
import { chooseTarget } from "./choose-target.ts";
import { externalTarget } from "./external-target.ts";
import { httpTarget } from "./http/http-target.ts";
import type { GraphsAsked } from "./langgraph/langgraph-step-names.ts";
import { langgraphTarget } from "./langgraph/langgraph-target.ts";
import { mastraTarget } from "./mastra/mastra-target.ts";
import { loadTargetConfig, type TargetConfig, type TargetEntry } from "./target-config.ts";
import { inProcessTarget } from "./in-process-target.ts";
import { withJudgeTape } from "./judge-tape.ts";
import type { ModelFaults } from "./model-faults.ts";
import { ProviderGate } from "../limits/provider-gate.ts";
import { RunArbiter } from "../limits/run-arbiter.ts";
import { runLimits, type RunLimits } from "../limits/run-limits.ts";
import type { TargetSessions } from "./session-reader.ts";
import type { StartedApps, StartableEntry } from "./start/started-apps.ts";
import { servedApps, withServedModel, type ServedModel } from "./served-model.ts";
import type { ConversationOptions, TargetConversation } from "./target-conversation.ts";

/** What the run reports of a target, and calls it in messages. */
export interface TargetDescription {
  /** Where its API is: the transcript's and the results' `target`. */
  readonly baseUrl: string;
  /** Where a target that runs elsewhere is, in messages: `FLOW_BASE_URL` unless it says, e.g. `target graphs (langgraph)`. */
  readonly elsewhere?: string;
  /** The environment pins in force when the app booted, secrets redacted. */
  readonly pins: Readonly<Record<string, string>>;
  /** The model mode of each flow, when the app runs in this process. */
  readonly models?: Readonly<Record<string, string>>;
}

/**
 * What only some targets can do or carry. A run that needs one the target lacks says so in one
 * place: `restartCheck` for `restart`, `faultsMissing` for `faults`.
 */
export interface TargetCapabilities {
  /**
   * Boots the app again on the same store, with nothing kept in memory, as a restarted process
   * would: the next turn must resume from what was stored. With `clock`, the scenario's flow's
   * clock reads that instant from then on. Only an app in this process has it.
   */
  restart?(options?: { clock?: string }): Promise<void>;
  /** Makes a chosen model call of the next turn go wrong (`modelFault`, `failModelCall`). Only an app in this process has it. */
  readonly faults?: ModelFaults;
  /**
   * The conversation's side of the model seam, for a target flowcheck started with its model served
   * there (`model`): its model calls credited to its turns, faulted and read for their tool calls.
   */
  readonly seam?: SeamConversation;
  /** With FLOW_MODEL=record or replay: the scenario's model and judge calls on tape (a target elsewhere: its judge's alone). */
  readonly cassette?: Cassette;
  /** How the scenario's model and judge calls reach their provider, within the run's limits, and the tokens they used. */
  readonly provider?: ProviderGate;
  /**
   * The configuration the run was read with (the scenario's env defaults applied, for an app in
   * this process). Without it the environment is read as it is.
   */
  readonly config?: Config;
}

/**
 * What a scenario is played against: the app in this process, a flowcheck server elsewhere, a
 * LangGraph server, a team's own chat API. The run asks no more of it than this; what only some
 * kinds can do is in `capabilities`.
 *
 * @example A server that speaks flowcheck's HTTP API, its store not read from here:
 * ```ts
 * const target: ScenarioTarget = {
 *   description: { baseUrl, pins: {} },
 *   ...flowcheckApi(baseUrl),
 *   sessions: { unavailable: "this server's store is not read from here" },
 *   close: async () => {},
 * };
 * ```
 */
export interface ScenarioTarget {
  readonly description: TargetDescription;
  /** A conversation on the target; the run opens one and closes it when it ends. */
  converse(options: ConversationOptions): TargetConversation;
  /** Where the persisted contract reads the session from, or why it cannot: those checks are then skipped with it. */
  readonly sessions: TargetSessions;
  /**
   * What keeps the target from serving the scenario, empty when nothing does: its flow or graph
   * not served, steps the scenario names that it lacks. `options`: what the requests carry.
   */
  servingProblems(scenario: Scenario, options: ChatClientOptions): Promise<string[]>;
  close(): Promise<void>;
  readonly capabilities?: TargetCapabilities;
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
   * The apps the run has started for its targets with a `start`, each once. Default: the target
   * starts its app itself and stops it when it closes.
   */
  startedApps?: StartedApps<ServedModel>;
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
    return await startedTarget(chosen, options.startedApps, own, async (entry, served) => {
      const named = await namedTarget({ ...chosen, entry }, loaded, own, scenarioKeys, gate, asked);
      const taped = await withJudgeTape(named, loaded, own, served !== undefined);
      return served ? await withServedModel(taped, served, loaded) : taped;
    });
  }
  if (!config.targetUrl) return await inProcessTarget(loaded, options, config, scenarioKeys, gate(config));
  // A server elsewhere booted with its own environment: the flow's settings cannot reach it, and only the run settings reach this runner.
  const own = derivedConfig(source(), { defaults: scenarioRunSettingsOf(loaded) });
  return await externalTarget(config.targetUrl, own, scenarioKeys, gate(own));
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

/** A target of flowcheck.config.json: a flowcheck server at its baseUrl (its SQLite file read), a LangGraph server, a team's own http API, an AI SDK chat route, or a Mastra server. */
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
    return namedElsewhere(langgraphTarget(entry, name, loaded.scenario.flowName, own, gate(own), asked), elsewhere);
  if (entry.kind === "http")
    return namedElsewhere(httpTarget(entry, name, loaded.scenario.flowName, own, gate(own)), elsewhere);
  if (entry.kind === "ai-sdk")
    return namedElsewhere(aiSdkTarget(entry, name, loaded.scenario.flowName, own, gate(own)), elsewhere);
  if (entry.kind === "mastra")
    return namedElsewhere(mastraTarget(entry, name, loaded.scenario.flowName, own, gate(own)), elsewhere);
  // The entry's headers and SQLite file over the run's own, as FLOW_HEADERS and SQLITE_PATH would give them.
  const config: Config = {
    ...own,
    requestHeaders: { ...own.requestHeaders, ...entry.headers },
    sqlitePath: entry.sqlitePath ?? own.sqlitePath,
    ...(entry.timeoutMs === undefined ? {} : { turnTimeoutMs: entry.timeoutMs }),
  };
  return await externalTarget(entry.baseUrl, config, scenarioKeys, gate(config), elsewhere);
}

/**
 * The target `make` makes of `chosen`'s entry, its baseUrl the started app's for an entry with a
 * `start` (the run's, or else one started for this target alone and stopped when it closes), and
 * the model flowcheck serves that app, for an entry with a `model`.
 */
async function startedTarget(
  chosen: { name: string; entry: TargetEntry },
  apps: StartedApps<ServedModel> | undefined,
  config: Config,
  make: (entry: TargetEntry, served: ServedModel | undefined) => Promise<ScenarioTarget>,
): Promise<ScenarioTarget> {
  const { name, entry } = chosen;
  if (entry.start === undefined) return await make(entry, undefined);
  const owner = apps ?? servedApps({ env: config.env }, config.flowModel);
  const own = apps === undefined ? owner : undefined;
  try {
    const app = await owner.app(name, entry as StartableEntry);
    const target = await make({ ...entry, baseUrl: app.baseUrl }, await owner.seam(name));
    if (!own) return target;
    return { ...target, close: () => target.close().finally(() => own.closeAll()) };
  } catch (error) {
    await own?.closeAll();
    throw error;
  }
}

/** A target of flowcheck.config.json, named in messages by its name and kind. */
function namedElsewhere(target: ScenarioTarget, elsewhere: string): ScenarioTarget {
  return { ...target, description: { ...target.description, elsewhere } };
}
