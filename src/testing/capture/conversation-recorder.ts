import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { derivedConfig, type Config, type ModelMode } from "../../config.ts";
import { createApp, type App } from "../../create-app.ts";
import { FlowcheckError } from "../../errors.ts";
import type { ChatModel } from "../../engine/chat-model.ts";
import type { ModelWrapper } from "../../engine/model-factory.ts";
import type { FlowEntry } from "../../engine/scripted-model.ts";
import { SqliteSessionStore } from "../../store/sqlite/sqlite-session-store.ts";
import { sessionChange } from "../report/session-change.ts";
import type { CapturedTurn } from "./capture-conversation.ts";
import {
  leftoverReplies,
  replyQueuesOf,
  takeReply,
  whereOf,
  type ReplyQueues,
  type TakenReply,
} from "./reply-queues.ts";
import { writeCapturedScenario, type WrittenScenario } from "./write-captured-scenario.ts";

export interface RecorderOptions {
  flowName: string;
  flows: readonly FlowEntry[];
  /** The environment the app is configured from: FLOW_MODEL scripted (default), live or record. */
  env: Readonly<Record<string, string | undefined>>;
  /** The scenarios folder `save` writes to. */
  dir: string;
}

interface RecordedTurn extends CapturedTurn {
  /** The model's replies of the turn, to play the conversation again without asking the model. */
  calls: TakenReply[];
}

function configOf(options: RecorderOptions, pin: string): Config {
  if (options.env["FLOW_MODEL"] === "replay") {
    throw new FlowcheckError(
      "config_invalid",
      "scenario:record holds a new conversation, which FLOW_MODEL=replay has no cassette for; " +
        "use FLOW_MODEL=scripted (the default) or live.",
    );
  }
  // Recording is the live model with its calls kept, which `save` writes as the cassette; a new
  // conversation has no cassette yet, so `auto` records it too.
  const recording = options.env["FLOW_MODEL"] === "record" || options.env["FLOW_MODEL"] === "auto";
  const env = recording ? { ...options.env, FLOW_MODEL: "live" } : options.env;
  return derivedConfig(env, { defaults: { [pin]: new Date().toISOString() } });
}

/**
 * A conversation with a flow in this process, turn by turn, that can drop its last turn and be
 * saved as a scenario. The flow's clock is pinned to when recording began, so the saved scenario
 * plays in the time it was recorded in.
 */
export class ConversationRecorder {
  readonly mode: ModelMode;
  readonly #options: RecorderOptions;
  readonly #app: App;
  readonly #scratch: string;
  readonly #pin: string;
  #turns: RecordedTurn[] = [];
  #session: string | undefined;
  #calls: TakenReply[] = [];
  /** While a dropped turn is rewound, the kept turns' replies, instead of the model. */
  #replaying: ReplyQueues | undefined;

  private constructor(options: RecorderOptions, app: App, scratch: string, pin: string) {
    this.#options = options;
    this.#app = app;
    this.#scratch = scratch;
    this.#pin = pin;
    this.mode = app.modelModes[options.flowName]!;
  }

  static async open(options: RecorderOptions): Promise<ConversationRecorder> {
    const entry = options.flows.find((candidate) => candidate.flow.name === options.flowName);
    if (!entry) {
      throw new FlowcheckError(
        "unknown_flow",
        `There is no flow "${options.flowName}". The flows are: ${options.flows.map((candidate) => candidate.flow.name).join(", ")}.`,
      );
    }
    const pin = `${entry.flow.envPrefix}_CURRENT_DATE`;
    const config = configOf(options, pin);
    const scratch = await mkdtemp(join(tmpdir(), "flowcheck-record-"));
    const store = new SqliteSessionStore(join(scratch, "record.sqlite"), { scratch: true });
    let recorder: ConversationRecorder | undefined;
    const wrapModel: ModelWrapper = (context, make) => recorder!.#model(whereOf(context.flow, context.step), make);
    try {
      const app = await createApp({ flows: options.flows, config, store, wrapModel });
      recorder = new ConversationRecorder(options, app, scratch, pin);
      return recorder;
    } catch (error) {
      await store.close();
      await rm(scratch, { recursive: true, force: true });
      throw error;
    }
  }

  get turns(): readonly CapturedTurn[] {
    return this.#turns;
  }

  #model(where: string, make: () => ChatModel): ChatModel {
    return {
      invoke: async (request) => {
        if (this.#replaying) return takeReply(this.#replaying, where, "the recorded conversation");
        const reply = await make().invoke(request);
        this.#calls.push({ where, reply });
        return reply;
      },
    };
  }

  /** Sends `input` as the next turn; a turn that fails (e.g. to a finished run) is not kept. */
  say(input: string): Promise<CapturedTurn> {
    return this.#apply(input);
  }

  async #apply(input: string): Promise<RecordedTurn> {
    this.#calls = [];
    const session = this.#session;
    const outcome = await this.#app.engine.chat(
      session === undefined ? { flow: this.#options.flowName, message: input } : { session, message: input },
    );
    this.#session = outcome.session;
    const head = (await this.#app.store.fetchHead(outcome.session))!;
    const turn: RecordedTurn = {
      input,
      response: outcome.response,
      head,
      change: sessionChange(this.#turns.at(-1)?.head, head),
      calls: this.#calls,
    };
    this.#turns.push(turn);
    return turn;
  }

  /**
   * Drops the last turn and rewinds the session to before it: the kept inputs are played into a
   * new session on the replies they had, so the model is not asked again. Returns the dropped turn.
   */
  async undo(): Promise<CapturedTurn | undefined> {
    const dropped = this.#turns.pop();
    if (!dropped) return undefined;
    const kept = this.#turns;
    this.#turns = [];
    this.#session = undefined;
    this.#replaying = replyQueuesOf(kept.flatMap((turn) => turn.calls));
    try {
      for (const turn of kept) {
        const replayed = await this.#apply(turn.input);
        replayed.calls = turn.calls;
      }
      const unused = leftoverReplies(this.#replaying);
      if (unused.length)
        throw new FlowcheckError(
          "capture_diverged",
          `Rewinding the conversation left replies unasked for (${unused.join(", ")}); /quit and record it again.`,
        );
    } finally {
      this.#replaying = undefined;
    }
    return dropped;
  }

  /** Writes `<dir>/<name>.scenario.json`, and with the live model its cassette. */
  async save(name: string, force: boolean): Promise<WrittenScenario> {
    if (this.#turns.length === 0)
      throw new FlowcheckError("scenario_invalid", "There is no turn to save yet; say something to the flow first.");
    const live = this.mode === "live";
    const pinned = this.#app.config.env[this.#pin]!;
    return writeCapturedScenario(
      { dir: this.#options.dir, name, force, cassette: live },
      {
        flowName: this.#options.flowName,
        flows: this.#options.flows,
        config: derivedConfig(this.#app.config.env, { overrides: { FLOW_MODEL: "replay" } }),
        inputs: this.#turns.map((turn) => turn.input),
      },
      {
        queues: replyQueuesOf(this.#turns.flatMap((turn) => turn.calls)),
        source: "the recorded conversation",
        description: `A conversation with ${this.#options.flowName} recorded with scenario:record (${this.mode} model) on ${pinned}.`,
        env: { [this.#pin]: pinned },
      },
    );
  }

  async close(): Promise<void> {
    await this.#app.close();
    await rm(this.#scratch, { recursive: true, force: true });
  }
}
