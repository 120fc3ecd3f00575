import { existsSync, mkdirSync } from "node:fs";
import type http from "node:http";
import { mkdtemp, rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { DEFAULTS, loadConfig, type Config } from "../../config.ts";
import { FlowcheckError } from "../../errors.ts";
import { Cassette } from "../cassette/cassette.ts";
import { keepAliveAgent } from "../client/chat-client.ts";
import { ModelFaults } from "./model-faults.ts";
import { createApp, type App } from "../../create-app.ts";
import type { FlowEntry } from "../../engine/scripted-model.ts";
import type { SessionDocument, SessionHead } from "../../engine/session-document.ts";
import type { SessionStore } from "../../engine/session-store.ts";
import { createNodeServer, listen } from "../../http/node-server.ts";
import { SqliteSessionStore } from "../../store/sqlite/sqlite-session-store.ts";
import type { LoadedScenario } from "../scenario/scenario.ts";

/** Where the persisted contract reads sessions from. */
export interface SessionReader {
  readonly description: string;
  fetchAll(id: string): Promise<SessionDocument | undefined>;
  /**
   * The session without its conversation, which is all a turn's checks read; without it they
   * read the whole session, whose cost grows with the conversation.
   */
  fetchHead?(id: string): Promise<SessionHead | undefined>;
  /**
   * A value that changes whenever anything is committed to the store, by any writer. Around a turn
   * that expects an error, equal marks prove the store unchanged without reading the session again;
   * without it the whole session is read again and compared.
   */
  writeMark?(): string;
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
  /** The configuration the run was read with (the scenario's env defaults applied). */
  readonly config?: Config;
  /** With FLOW_MODEL=record or replay: the scenario's model and judge calls on tape. */
  readonly cassette?: Cassette;
  /**
   * Boots the app again on the same store, with nothing kept in memory, as a restarted process
   * would: the next turn must resume from what was stored. With `clock`, the scenario's flow's
   * clock reads that instant from then on. Only an app in this process has it.
   */
  restart?(options?: { clock?: string }): Promise<void>;
  /** Makes a chosen model call of the next turn fail (`failModelCall`). Only an app in this process has it. */
  readonly faults?: ModelFaults;
  close(): Promise<void>;
}

export interface TargetOptions {
  flows: readonly FlowEntry[];
  /** Where scratch databases go. Default `test/.tmp` under the working directory. */
  scratchDir?: string;
}

const SECRET = /KEY|TOKEN|SECRET|PASSWORD/i;
const PINNED = /^(FLOW_MODEL|FLOW_BASE_URL|SESSION_STORE|SQLITE_PATH|OPENAI_BASE_URL|OPENAI_MODEL|JUDGE_MODEL)$|_USE_SCRIPTED_MODEL$|_CURRENT_DATE$/;

function pinsOf(env: NodeJS.ProcessEnv, scenarioKeys: string[]): Record<string, string> {
  const pins: Record<string, string> = {};
  for (const [key, value] of Object.entries(env).sort(([a], [b]) => a.localeCompare(b))) {
    if (value === undefined || !(PINNED.test(key) || scenarioKeys.includes(key))) continue;
    pins[key] = SECRET.test(key) ? "[redacted]" : value;
  }
  return pins;
}

async function externalTarget(baseUrl: string, env: NodeJS.ProcessEnv, scenarioKeys: string[]): Promise<ScenarioTarget> {
  const mode = env["FLOW_MODEL"];
  if (mode === "record" || mode === "replay") {
    throw new FlowcheckError(
      "config_invalid",
      `FLOW_MODEL=${mode} tapes the models of an app in this process, but FLOW_BASE_URL=${baseUrl} runs its models elsewhere; unset one of them.`,
    );
  }
  const path = env["SQLITE_PATH"];
  const kind = env["SESSION_STORE"] ?? "SQLITE";
  const mongoUrl = env["MONGO_URL"];
  let sessions: (SessionReader & { close(): Promise<void> }) | undefined;
  let sessionsUnavailable: string | undefined;
  if (kind === "MONGO") {
    if (!mongoUrl) sessionsUnavailable = "SESSION_STORE=MONGO is set but MONGO_URL is not, so the target's store cannot be read; the persisted contract is not checked";
    else {
      const { MongoSessionStore } = await import("../../store/mongo/mongo-session-store.ts");
      sessions = await MongoSessionStore.open(mongoUrl, env["DOCUMENT_DB"] ?? DEFAULTS.DOCUMENT_DB);
    }
  } else if (kind !== "SQLITE") sessionsUnavailable = `SESSION_STORE=${kind} cannot be read by this runner; the persisted contract is not checked`;
  else if (!path) sessionsUnavailable = "FLOW_BASE_URL is set but SQLITE_PATH is not, so the target's store cannot be read; the persisted contract is not checked";
  else if (!existsSync(path)) sessionsUnavailable = `SQLITE_PATH=${path} does not exist, so the target's store cannot be read; the persisted contract is not checked`;
  else sessions = new SqliteSessionStore(path, { readonly: true });
  const agent = keepAliveAgent();
  return {
    baseUrl,
    agent,
    sessions,
    ...(sessionsUnavailable ? { sessionsUnavailable } : {}),
    pins: pinsOf(env, scenarioKeys),
    close: async () => {
      agent.destroy();
      await sessions?.close();
    },
  };
}

/**
 * Opens where the app in this process keeps its sessions: MongoDB when SESSION_STORE=MONGO
 * (DOCUMENT_DB; the sessions stay there to be looked at), else a scratch SQLite file in `scratch`.
 * Opening it again reopens the same sessions.
 */
async function openRunStore(config: Config, scratch: string): Promise<{ store: SessionStore; kept: string }> {
  if (config.sessionStore === "MONGO") {
    const { MongoSessionStore } = await import("../../store/mongo/mongo-session-store.ts");
    return { store: await MongoSessionStore.open(config.mongo.url!, config.mongo.database), kept: "kept after the scenario" };
  }
  return { store: new SqliteSessionStore(join(scratch, "sessions.sqlite"), { scratch: true }), kept: "scratch: removed when the scenario ends" };
}

/**
 * With `FLOW_BASE_URL` set, the already-running server there. Otherwise the app, booted in this
 * process on 127.0.0.1 with an ephemeral port and a SQLite file of its own (or, with
 * SESSION_STORE=MONGO, MongoDB), after the scenario's `env` defaults are set (a value already in
 * the environment wins; they are undone on close). Such a target can be restarted.
 */
export async function startScenarioTarget(loaded: LoadedScenario, options: TargetOptions): Promise<ScenarioTarget> {
  const env = process.env;
  const scenarioKeys = Object.keys(loaded.scenario.env ?? {});
  const external = env["FLOW_BASE_URL"];
  if (external) return await externalTarget(external, env, scenarioKeys);

  const added: string[] = [];
  for (const [key, value] of Object.entries(loaded.scenario.env ?? {})) {
    if (env[key] === undefined) {
      env[key] = value;
      added.push(key);
    }
  }
  const undoEnv = () => added.forEach((key) => delete env[key]);
  const scratchRoot = resolve(options.scratchDir ?? "test/.tmp");
  mkdirSync(scratchRoot, { recursive: true });
  const scratch = await mkdtemp(join(scratchRoot, `${loaded.name.replaceAll("/", "-")}-`));
  let app: App | undefined;
  let server: http.Server | undefined;
  try {
    const config = loadConfig(env);
    const tape = config.flowModel === "record" || config.flowModel === "replay" ? config.flowModel : undefined;
    const cassette = tape ? Cassette.open(loaded, tape, { modelName: config.openai.model, ci: config.ci }) : undefined;
    let kept = "";
    const faults = new ModelFaults();
    // The environment the app reads, moved on by a clock change.
    let appConfig = config;
    const clockPin = `${options.flows.find((entry) => entry.flow.name === loaded.scenario.flowName)?.flow.envPrefix}_CURRENT_DATE`;
    // The app with nothing in memory, on the store as the last one left it: a process started again.
    const boot = async (): Promise<App> => {
      const opened = await openRunStore(config, scratch);
      kept = opened.kept;
      try {
        return await createApp({
          flows: options.flows,
          config: appConfig,
          store: opened.store,
          defaultModelMode: "scripted",
          wrapModel: faults.wrap,
          ...(cassette ? { cassette: cassette.models } : {}),
        });
      } catch (error) {
        await opened.store.close();
        throw error;
      }
    };
    app = await boot();
    // The server outlives the apps it serves, so a restart keeps the address the runner talks to.
    const running = createNodeServer((request) => app!.handler(request));
    server = running;
    const url = await listen(running, "127.0.0.1", 0);
    const agent = keepAliveAgent();
    return {
      config,
      ...(cassette ? { cassette } : {}),
      baseUrl: url,
      agent,
      sessions: {
        description: `${app.store.description} (${kept})`,
        fetchAll: (id) => app!.store.fetchAll(id),
        fetchHead: (id) => app!.store.fetchHead(id),
        ...(app.store instanceof SqliteSessionStore ? { writeMark: () => (app!.store as SqliteSessionStore).writeMark() } : {}),
      },
      pins: pinsOf(env, scenarioKeys),
      models: app.modelModes,
      faults,
      restart: async (restartOptions = {}) => {
        if (restartOptions.clock !== undefined) appConfig = loadConfig({ ...appConfig.env, [clockPin]: restartOptions.clock });
        await app!.close();
        app = await boot();
      },
      close: async () => {
        agent.destroy();
        const closed = new Promise<void>((done) => running.close(() => done()));
        running.closeIdleConnections();
        await closed;
        await app!.close();
        cassette?.save();
        undoEnv();
        await rm(scratch, { recursive: true, force: true });
      },
    };
  } catch (error) {
    server?.close();
    await app?.close();
    undoEnv();
    await rm(scratch, { recursive: true, force: true });
    throw error;
  }
}
