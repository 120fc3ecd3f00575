import { loadConfig, modelModeOf, type Config, type ModelMode } from "./config.ts";
import { FlowcheckError } from "./errors.ts";
import { createClock, type Clock } from "./engine/clock.ts";
import { flowFamily } from "./engine/flow-family.ts";
import { FlowEngine } from "./engine/flow-engine.ts";
import { liveModel } from "./engine/live-model.ts";
import { guardLoopbackOnly } from "./engine/loopback-guard.ts";
import { wrapModels, type ModelFactory, type ModelWrapper } from "./engine/model-factory.ts";
import { scriptedModel, type FlowEntry, type Script } from "./engine/scripted-model.ts";
import type { SessionStore } from "./engine/session-store.ts";
import { createHandler, type Handler } from "./http/create-handler.ts";
import { openSessionStore } from "./open-session-store.ts";

export interface AppOptions {
  /** The flows the app serves, each with the scripts of its scripted model. */
  flows: readonly FlowEntry[];
  /** Default: the environment, read now by `loadConfig()`. */
  config?: Config;
  /** Default: the store `SESSION_STORE` names. */
  store?: SessionStore;
  /** The mode of a flow that neither `FLOW_MODEL` nor its own pin decides. Default `scripted`. */
  defaultModelMode?: ModelMode;
  /** The SQLite file when `SQLITE_PATH` is unset. Default `data/flowcheck.sqlite`. */
  defaultSqlitePath?: string;
  /** Makes the models of flows in `record` or `replay` mode: a scenario's cassette. */
  cassette?: ModelWrapper;
  /** Wraps every model the app makes, outermost (the runner's injected model failures). */
  wrapModel?: ModelWrapper;
  /** How the live model's SDK sends its requests (the runner's provider limits); default the global `fetch`. */
  modelFetch?: typeof globalThis.fetch;
  log?: (message: string) => void;
}

export interface App {
  readonly config: Config;
  readonly engine: FlowEngine;
  readonly store: SessionStore;
  readonly handler: Handler;
  /** The model mode each registered flow runs in. */
  readonly modelModes: Readonly<Record<string, ModelMode>>;
  /** Closes the store and lets go of the app's network guard. */
  close(): Promise<void>;
}

interface ModelPlan {
  /** The model mode of each registered flow. */
  modelModes: Record<string, ModelMode>;
  /** The scripts of the flows (and their children) that run scripted. */
  scripts: Record<string, Script>;
  /** Each flow's and child flow's clock. */
  clocks: Map<string, Clock>;
}

/** Each flow's model mode, the scripts of the scripted ones, and every flow's clock. */
function planModels(entries: readonly FlowEntry[], config: Config, defaultMode: ModelMode): ModelPlan {
  const plan: ModelPlan = { modelModes: {}, scripts: {}, clocks: new Map() };
  for (const { flow, scripts } of entries) {
    const mode = modelModeOf(config, flow.envPrefix, defaultMode);
    plan.modelModes[flow.name] = mode;
    for (const member of flowFamily(flow)) {
      // A child without a pin of its own reads its parent flow's, so a pinned scenario has one time.
      const own = `${member.envPrefix}_CURRENT_DATE`;
      const variable = config.env[own] === undefined ? `${flow.envPrefix}_CURRENT_DATE` : own;
      plan.clocks.set(member.name, createClock(config.env[variable], variable));
      if (mode !== "scripted") continue;
      const script = scripts?.[member.name];
      if (!script) {
        throw new FlowcheckError(
          "config_invalid",
          `${flow.name} runs with the scripted model but has no script for ${member.name}. ` +
            `Give the flow's entry scripts for it, or run it with FLOW_MODEL=live.`,
        );
      }
      plan.scripts[member.name] = script;
    }
  }
  return plan;
}

/** The flows that call a live model, and those taped; refuses modes the app cannot serve. */
function checkModes(
  modelModes: Readonly<Record<string, ModelMode>>,
  config: Config,
  cassette: ModelWrapper | undefined,
): { live: string[]; taped: Set<string> } {
  const flowsIn = (...wanted: ModelMode[]) =>
    Object.keys(modelModes).filter((name) => wanted.includes(modelModes[name]!));
  const live = flowsIn("live", "record");
  if (live.length && !config.openai.apiKey) {
    throw new FlowcheckError(
      "config_invalid",
      `${live.join(", ")} run with the live model, which needs OPENAI_API_KEY; set it, or set FLOW_MODEL=scripted.`,
    );
  }
  // `auto` is decided per conversation where its tape is opened; an app given none (npm start) cannot decide it.
  const taped = new Set(flowsIn("record", "replay", "auto"));
  if (taped.size && !cassette) {
    throw new FlowcheckError(
      "config_invalid",
      `${[...taped].join(", ")} run with FLOW_MODEL=${config.flowModel}, which records or replays one scenario's cassette; ` +
        `run the scenarios (npm run test:flows) instead of npm start.`,
    );
  }
  return { live, taped };
}

/**
 * The app's one model factory, composed from its plan, innermost first: the live model, the scripts
 * of the scripted flows, the cassette of the taped ones, and the caller's wrapper outermost, so a
 * failure it injects happens before any tape records or replays.
 */
function composeModels(
  plan: ModelPlan,
  modes: { taped: Set<string> },
  config: Config,
  options: AppOptions,
): ModelFactory {
  const { cassette, wrapModel } = options;
  const layers: (ModelWrapper | undefined)[] = [
    Object.keys(plan.scripts).length ? scriptedModel(plan.scripts) : undefined,
    cassette && modes.taped.size
      ? (context, make) => (modes.taped.has(context.rootFlow) ? cassette(context, make) : make())
      : undefined,
    wrapModel,
  ];
  const live = liveModel({ ...config.openai, ...(options.modelFetch ? { fetch: options.modelFetch } : {}) });
  return layers.reduce<ModelFactory>((inner, wrap) => (wrap ? wrapModels(inner, wrap) : inner), live);
}

/**
 * Builds the engine, store and HTTP handler from the configuration, read once. Pins in the
 * environment (`<FLOW>_CURRENT_DATE`, `<FLOW>_USE_SCRIPTED_MODEL`) must be set before this call.
 */
export async function createApp(options: AppOptions): Promise<App> {
  const config = options.config ?? loadConfig();
  const entries = options.flows;
  const plan = planModels(entries, config, options.defaultModelMode ?? "scripted");
  const modes = checkModes(plan.modelModes, config, options.cassette);
  const store = options.store ?? (await openSessionStore(config, options.defaultSqlitePath ?? "data/flowcheck.sqlite"));
  // With no flow live, every turn of this app is kept to loopback; other apps in the process are not.
  const guard =
    modes.live.length === 0 ? guardLoopbackOnly(config.flowModel === "replay" ? "replay" : "scripted") : undefined;
  let engine: FlowEngine;
  try {
    engine = new FlowEngine({
      flows: entries.map((entry) => entry.flow),
      store,
      modelOf: composeModels(plan, modes, config, options),
      guard,
      env: config.env,
      clockOf: (flow) => {
        const clock = plan.clocks.get(flow);
        if (!clock)
          throw new FlowcheckError(
            "flow_invalid",
            `${flow} is neither registered nor a declared child of a registered flow.`,
          );
        return clock;
      },
    });
  } catch (error) {
    // Two flows of one name: no app is made, so nothing may hold the guard for it.
    guard?.lift();
    throw error;
  }
  let closed: Promise<void> | undefined;
  return Object.freeze({
    config,
    engine,
    store,
    handler: createHandler(engine, { log: options.log }),
    modelModes: Object.freeze(plan.modelModes),
    close: () =>
      (closed ??= (async () => {
        guard?.lift();
        await store.close();
      })()),
  });
}
