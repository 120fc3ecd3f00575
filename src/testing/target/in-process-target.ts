import type http from "node:http";
import { mkdirSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { derivedConfig, type Config } from "../../config.ts";
import { createApp, type App } from "../../create-app.ts";
import type { FlowEntry } from "../../engine/scripted-model.ts";
import type { SessionStore } from "../../engine/session-store.ts";
import type { Handler } from "../../http/create-handler.ts";
import { createNodeServer, listen } from "../../http/node-server.ts";
import { openMongoSessionStore } from "../../store/mongo/open-mongo-session-store.ts";
import { SqliteSessionStore } from "../../store/sqlite/sqlite-session-store.ts";
import type { Cassette } from "../cassette/cassette.ts";
import { openTape } from "../cassette/open-tape.ts";
import { withTapeMode } from "../cassette/tape-mode-of.ts";
import { keepAliveAgent } from "../client/chat-client.ts";
import type { LoadedScenario } from "../scenario/scenario.ts";
import { ModelFaults } from "./model-faults.ts";
import type { ProviderGate } from "../limits/provider-gate.ts";
import { flowcheckApi } from "./flowcheck-api.ts";
import type { ScenarioTarget, TargetOptions } from "./scenario-target.ts";
import type { SessionReader } from "./session-reader.ts";
import { pinsOf } from "./target-pins.ts";

/**
 * Opens where the app in this process keeps its sessions: MongoDB when SESSION_STORE=MONGO
 * (DOCUMENT_DB; the sessions stay there to be looked at), else a scratch SQLite file in `scratch`.
 * Opening it again reopens the same sessions.
 */
async function openRunStore(config: Config, scratch: string): Promise<{ store: SessionStore; kept: string }> {
  if (config.sessionStore === "MONGO") {
    return {
      store: await openMongoSessionStore(config.mongo.url!, config.mongo.database),
      kept: "kept after the scenario",
    };
  }
  return {
    store: new SqliteSessionStore(join(scratch, "sessions.sqlite"), { scratch: true }),
    kept: "scratch: removed when the scenario ends",
  };
}

/**
 * The app a scenario runs on, booted again with nothing in memory, on the store as the last one
 * left it, for a restart or a clock change: a process started again.
 */
class RunApp {
  app!: App;
  /** What the app answers with: its own handler, or the mutant's around it. */
  handler!: Handler;
  /** How the store keeps its sessions after the run, for the target's description. */
  kept = "";
  readonly faults = new ModelFaults();
  readonly #options: TargetOptions;
  /** The flows the app is built with: the target's, or the mutant's made from them. */
  readonly #flows: readonly FlowEntry[];
  readonly #scratch: string;
  readonly #cassette: Cassette | undefined;
  readonly #modelFetch: typeof globalThis.fetch;
  readonly #clockPin: string;
  /** The configuration the app reads, moved on by a clock change. */
  #config: Config;

  constructor(
    loaded: LoadedScenario,
    options: TargetOptions,
    config: Config,
    scratch: string,
    cassette: Cassette | undefined,
    modelFetch: typeof globalThis.fetch,
  ) {
    this.#options = options;
    this.#flows = options.mutant?.flows(options.flows) ?? options.flows;
    this.#modelFetch = modelFetch;
    this.#config = config;
    this.#scratch = scratch;
    this.#cassette = cassette;
    this.#clockPin = `${options.flows.find((entry) => entry.flow.name === loaded.scenario.flowName)?.flow.envPrefix}_CURRENT_DATE`;
  }

  async boot(): Promise<void> {
    const opened = await openRunStore(this.#config, this.#scratch);
    this.kept = opened.kept;
    try {
      this.app = await createApp({
        flows: this.#flows,
        config: this.#config,
        store: opened.store,
        defaultModelMode: "scripted",
        wrapModel: this.faults.wrap,
        modelFetch: this.#modelFetch,
        ...(this.#cassette ? { cassette: this.#cassette.models } : {}),
        // A mutant breaks the flow on purpose: the 500s it causes are its verdict's to report, not the terminal's.
        ...(this.#options.mutant ? { log: () => undefined } : {}),
      });
    } catch (error) {
      await opened.store.close();
      throw error;
    }
    this.handler = this.#options.mutant?.handler(this.app) ?? this.app.handler;
  }

  async restart(clock: string | undefined): Promise<void> {
    // The clock's pin is read again from the environment; the tape's mode, decided once for the conversation, is kept.
    if (clock !== undefined)
      this.#config = withTapeMode(
        derivedConfig(this.#config.env, { overrides: { [this.#clockPin]: clock } }),
        this.#cassette?.mode,
      );
    await this.app.close();
    await this.boot();
  }

  /** The sessions as the current app's store holds them, whichever app that is by then. */
  sessions(): SessionReader {
    const store = () => this.app.store;
    return {
      description: `${store().description} (${this.kept})`,
      fetchAll: (id) => store().fetchAll(id),
      fetchHead: (id) => store().fetchHead(id),
      ...(store() instanceof SqliteSessionStore
        ? { writeMark: () => (store() as SqliteSessionStore).writeMark() }
        : {}),
    };
  }
}

/**
 * The app, booted in this process on 127.0.0.1 with an ephemeral port and a SQLite file of its own
 * (or, with SESSION_STORE=MONGO, MongoDB), on `asked` with its tape opened (`openTape`). It can be restarted.
 */
export async function inProcessTarget(
  loaded: LoadedScenario,
  options: TargetOptions,
  asked: Config,
  scenarioKeys: readonly string[],
  provider: ProviderGate,
): Promise<ScenarioTarget> {
  const scratchRoot = resolve(options.scratchDir ?? "test/.tmp");
  mkdirSync(scratchRoot, { recursive: true });
  const scratch = await mkdtemp(join(scratchRoot, `${loaded.name.replaceAll("/", "-")}-`));
  let run: RunApp | undefined;
  let server: http.Server | undefined;
  try {
    const { cassette, config } = openTape(loaded, asked);
    const apps = new RunApp(loaded, options, config, scratch, cassette, provider.fetchFor("model"));
    run = apps;
    await apps.boot();
    // The server outlives the apps it serves, so a restart keeps the address the runner talks to.
    const running = createNodeServer((request) => apps.handler(request));
    server = running;
    const url = await listen(running, "127.0.0.1", 0);
    const agent = keepAliveAgent();
    return {
      description: { baseUrl: url, pins: pinsOf(config.env, scenarioKeys), models: apps.app.modelModes },
      ...flowcheckApi(url, agent),
      sessions: { reader: apps.sessions() },
      capabilities: {
        config,
        ...(cassette ? { cassette } : {}),
        faults: apps.faults,
        provider,
        restart: (restartOptions = {}) => apps.restart(restartOptions.clock),
      },
      close: async () => {
        agent.destroy();
        const closed = new Promise<void>((done) => running.close(() => done()));
        running.closeIdleConnections();
        await closed;
        await apps.app.close();
        cassette?.save();
        await rm(scratch, { recursive: true, force: true });
      },
    };
  } catch (error) {
    server?.close();
    await run?.app?.close();
    await rm(scratch, { recursive: true, force: true });
    throw error;
  }
}
