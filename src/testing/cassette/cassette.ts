import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { FlowcheckError } from "../../errors.ts";
import type { ChatModel, ModelReply, ModelRequest } from "../../engine/chat-model.ts";
import type { ModelWrapper } from "../../engine/model-factory.ts";
import type { JudgeClient, JudgeCompletion, JudgeRequest, JudgeSampleOf } from "../judge/judge-client.ts";
import type { LoadedScenario } from "../scenario/scenario.ts";
import type { UserReply, UserTurnRequest } from "../../engine/scripted-user.ts";
import type { UserSimulator } from "../user/user-simulator.ts";
import { firstDifference, showDifference } from "./first-difference.ts";
import { caseSlug } from "../scenario/scenario-cases.ts";
import {
  CASSETTE_VERSION,
  shownWhere,
  type CassetteCall,
  type CassetteFile,
  type CassetteWhere,
  type SeamWhere,
  type TapedReply,
} from "./cassette-file.ts";
import { migrateCassette } from "./migrate-cassette.ts";

export type CassetteMode = "record" | "replay";

/**
 * `scenarios/basic-flow.scenario.json` → `scenarios/basic-flow.cassette.json`; a case of a scenario
 * is a conversation of its own, with a tape of its own: `scenarios/names.jane-doe.cassette.json`.
 */
export function cassettePathOf(scenarioFile: string, caseLabel?: string): string {
  const base = scenarioFile.replace(/(\.scenario)?\.json$/, "");
  return `${caseLabel === undefined ? base : `${base}.${caseSlug(caseLabel)}`}.cassette.json`;
}

/**
 * A scenario's model, judge and simulated user calls on tape. Recording passes each call to the
 * live one and writes it down; replaying answers each call from the tape, strictly in order, after
 * checking that the request is the recorded one, so a prompt, tool or message that changed fails at
 * its position.
 */
export class Cassette {
  readonly path: string;
  readonly mode: CassetteMode;
  readonly #scenario: string;
  readonly #modelName: string;
  readonly #calls: CassetteCall[];
  /** FLOW_MODEL=auto chose the mode: a replay is never recorded over, a failed recording never saved. */
  readonly auto: boolean;
  /** What a replay that does not match tells its reader to do, if the change is intended. */
  readonly #again: string;
  #discarded = false;
  #played = 0;
  #turn = { number: 0, label: "(before the first turn)" };

  private constructor(
    path: string,
    mode: CassetteMode,
    scenario: string,
    options: { modelName: string; auto?: boolean },
    calls: CassetteCall[],
  ) {
    this.path = path;
    this.mode = mode;
    this.#scenario = scenario;
    this.#modelName = options.modelName;
    this.#calls = calls;
    this.auto = options.auto === true;
    this.#again = this.auto
      ? "FLOW_MODEL=auto never records over a cassette: if the change is intended, record it again on purpose with FLOW_MODEL=record."
      : "If the change is intended, record the cassette again with FLOW_MODEL=record.";
  }

  /**
   * `modelName` is the chat model the flows use, recorded with each request; `auto`: FLOW_MODEL=auto
   * chose the mode, so a mismatch's advice is not to expect it to record the cassette again.
   */
  static open(
    loaded: LoadedScenario,
    mode: CassetteMode,
    options: { modelName: string; ci: boolean; auto?: boolean },
  ): Cassette {
    const path = cassettePathOf(loaded.file, loaded.caseLabel);
    return Cassette.at(path, { file: loaded.file, name: loaded.name }, mode, options);
  }

  /**
   * The cassette at `path` of calls made for something other than a scenario (`of.file`, named
   * `of.name` in the file), such as the judge's calls of `flowcheck judge calibrate` for a labels file.
   */
  static at(
    path: string,
    of: { file: string; name: string },
    mode: CassetteMode,
    options: { modelName: string; ci: boolean; auto?: boolean },
  ): Cassette {
    if (mode === "record") return new Cassette(path, mode, of.name, options, []);
    if (!existsSync(path)) {
      throw new FlowcheckError(
        "cassette_missing",
        `FLOW_MODEL=replay has no cassette for ${of.file}: ${path} does not exist.` +
          (options.ci
            ? " Under CI a missing cassette is an error, never a live call: record it on a workstation (FLOW_MODEL=record) and commit it."
            : " Record it first with FLOW_MODEL=record and an OPENAI_API_KEY."),
      );
    }
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(path, "utf8"));
    } catch (error) {
      throw new FlowcheckError(
        "cassette_missing",
        `${path} is not a readable cassette (${(error as Error).message}); delete it and record it again.`,
      );
    }
    return new Cassette(path, mode, of.name, options, migrateCassette(json, path).calls);
  }

  /** Called before each turn, so every call is labelled with the turn that made it. */
  beginTurn(number: number, label: string): void {
    this.#turn = { number, label };
  }

  get hasJudgeCalls(): boolean {
    return this.#calls.some((call) => call.kind === "judge");
  }

  /** The model of every taped flow: records around the live one, or replays. */
  readonly models: ModelWrapper = (context, make) => {
    const model: ChatModel = {
      invoke: async (request) => {
        const recorded = this.#modelRequest(request);
        const where = { flow: context.flow, step: context.step };
        if (this.mode === "replay") return this.#replay("model", where, recorded) as ModelReply;
        const reply = await make().invoke(request);
        this.#record("model", where, recorded, reply);
        return reply;
      },
    };
    return model;
  };

  /**
   * A model call a started app made at the seam of its target (`request` as scripts read it, the
   * model the app named in it): recorded around `live`, the provider, or replayed. The reply is
   * taped with the tokens it used, so a replay answers the app the usage the provider gave.
   */
  async seamCall(
    where: SeamWhere,
    request: unknown,
    live: (() => Promise<TapedReply>) | undefined,
  ): Promise<TapedReply> {
    if (this.mode === "replay") {
      const { usage, ...reply } = this.#replay("model", where, request) as TapedReply["reply"] &
        Pick<TapedReply, "usage">;
      return usage ? { reply, usage } : { reply };
    }
    if (!live) {
      throw new FlowcheckError(
        "cassette_mismatch",
        `Recording a model call of target ${where.target} needs the live provider; set OPENAI_API_KEY.`,
      );
    }
    const taped = await live();
    this.#record("model", where, request, taped.usage ? { ...taped.reply, usage: taped.usage } : taped.reply);
    return taped;
  }

  /**
   * The judge's calls: recorded around `live`, each with its sample when a verdict has several,
   * or replayed, refusing a tape recorded with another `JUDGE_SAMPLES`.
   */
  judge(live: JudgeClient | undefined): JudgeClient {
    return async (request: JudgeRequest, sample?: JudgeSampleOf): Promise<JudgeCompletion> => {
      if (this.mode === "replay") {
        this.#checkSamples(sample);
        const reply = this.#replay("judge", undefined, request) as Omit<JudgeCompletion, "source">;
        return { ...reply, source: "replay" };
      }
      if (!live)
        throw new FlowcheckError("cassette_mismatch", "Recording a judge call needs a live judge; set OPENAI_API_KEY.");
      const completion = await live(request, sample);
      this.#record("judge", undefined, request, { content: completion.content, usage: completion.usage }, sample);
      return completion;
    };
  }

  /**
   * The next call, when it is the judge's, was recorded with as many samples per verdict as this
   * run takes: a tape of three samples a turn replayed with one would answer each turn's verdict
   * from another turn's samples. A call recorded with no sample had one, as before samples existed.
   */
  #checkSamples(sample: JudgeSampleOf | undefined): void {
    const call = this.#calls[this.#played];
    if (call?.kind !== "judge") return;
    const [recorded, now] = [call.sample?.of ?? 1, sample?.of ?? 1];
    if (recorded === now) return;
    throw new FlowcheckError(
      "cassette_mismatch",
      `Replay of ${this.path}: call ${call.position} (turn ${call.turn} '${call.label}', judge) was recorded with ` +
        `JUDGE_SAMPLES=${recorded}, and this run has JUDGE_SAMPLES=${now}: replay it with JUDGE_SAMPLES=${recorded}. ${this.#again}`,
    );
  }

  /**
   * The simulated user's messages: recorded around `live`, or replayed. Its request is the
   * conversation so far, so an answer of the flow that changed fails at the first message written
   * after it, naming the answer.
   */
  user(live: UserSimulator | undefined): UserSimulator {
    if (this.mode === "replay")
      return {
        player: "replay",
        next: async (request) =>
          this.#replay("user", undefined, request, (path) => entryOf(path, request)) as UserReply,
      };
    if (!live)
      throw new FlowcheckError(
        "cassette_mismatch",
        "Recording a simulated user needs a live one; set OPENAI_API_KEY (or USER_API_KEY).",
      );
    return {
      player: `${live.player} (recording)`,
      next: async (request) => {
        const turn = await live.next(request);
        const reply: UserReply = { message: turn.message, done: turn.done };
        if (turn.reason !== undefined) reply.reason = turn.reason;
        this.#record("user", undefined, request, reply);
        return turn;
      },
    };
  }

  /** In replay, what the recording has that the scenario did not ask for. */
  leftovers(): string | undefined {
    if (this.mode !== "replay" || this.#played >= this.#calls.length) return undefined;
    const next = this.#calls[this.#played]!;
    const left = this.#calls.length - this.#played;
    return (
      `${left} recorded call${left === 1 ? " was" : "s were"} never made, from call ${next.position} ` +
      `(turn ${next.turn} '${next.label}', ${shownWhere(next)}) in ${this.path}. ` +
      `The flow now makes fewer calls than when it was recorded. ${this.#again}`
    );
  }

  /**
   * A recording not to save: FLOW_MODEL=auto's of a conversation that failed, which would otherwise
   * be replayed, failure and all, by every later run, and refused once the flow or scenario is fixed.
   */
  discard(): void {
    this.#discarded = true;
  }

  /** Whether `save` writes the recording: in record mode, unless discarded. */
  get saves(): boolean {
    return this.mode === "record" && !this.#discarded;
  }

  save(): void {
    if (!this.saves) return;
    const file: CassetteFile = {
      cassette: CASSETTE_VERSION,
      scenario: this.#scenario,
      recordedAt: new Date().toISOString(),
      calls: this.#calls,
    };
    writeFileSync(this.path, `${JSON.stringify(file, null, 2)}\n`);
  }

  #modelRequest(request: ModelRequest): unknown {
    // A JSON round trip, so what is compared is exactly what a saved cassette holds.
    return JSON.parse(
      JSON.stringify({
        model: this.#modelName,
        system: request.system,
        tools: request.tools.map((tool) => ({
          name: tool.name,
          description: tool.description,
          parameters: tool.parameters,
        })),
        messages: request.messages,
      }),
    );
  }

  #record(
    kind: CassetteCall["kind"],
    where: CassetteWhere | undefined,
    request: unknown,
    reply: unknown,
    sample?: JudgeSampleOf,
  ): void {
    this.#calls.push({
      position: this.#calls.length + 1,
      turn: this.#turn.number,
      label: this.#turn.label,
      kind,
      ...(where ? { where } : {}),
      ...(sample ? { sample: { index: sample.index, of: sample.of } } : {}),
      request: JSON.parse(JSON.stringify(request)),
      reply: JSON.parse(JSON.stringify(reply)),
    });
  }

  /** `explain` names, for a test author, what the path of a difference is in this kind of request. */
  #replay(
    kind: CassetteCall["kind"],
    where: CassetteWhere | undefined,
    request: unknown,
    explain?: (path: string) => string | undefined,
  ): unknown {
    const position = this.#played + 1;
    const at = `call ${position} (turn ${this.#turn.number} '${this.#turn.label}', ${shownWhere({ kind, where })})`;
    const call = this.#calls[this.#played];
    const fix = this.#again;
    if (!call) {
      throw new FlowcheckError(
        "cassette_mismatch",
        `Replay of ${this.path}: ${at} is not in the recording, which has ${this.#calls.length} calls. ${fix}`,
      );
    }
    if (call.kind !== kind) {
      throw new FlowcheckError(
        "cassette_mismatch",
        `Replay of ${this.path}: ${at} is a ${kind} call, ` +
          `but the recording has a ${call.kind} call there (${shownWhere(call)}). ${fix}`,
      );
    }
    if (seamMoved(call.where, where)) {
      throw new FlowcheckError(
        "cassette_mismatch",
        `Replay of ${this.path}: ${at} was recorded as a model call of ${shownWhere(call)}. ${fix}`,
      );
    }
    const difference = firstDifference(call.request, JSON.parse(JSON.stringify(request)));
    if (difference) {
      const named = explain?.(difference.path);
      throw new FlowcheckError(
        "cassette_mismatch",
        `Replay of ${this.path}: ${at} differs from the recording in ${difference.path}` +
          `${named ? ` (${named})` : ""}:\n${showDifference(difference)}\n${fix}`,
      );
    }
    this.#played += 1;
    return call.reply;
  }
}

/**
 * Whether a model call was recorded at another place than it is made now, where either is a seam's:
 * an engine call's step shows in its prompt, which the request comparison names better.
 */
function seamMoved(recorded: CassetteWhere | undefined, now: CassetteWhere | undefined): boolean {
  const seam = (where: CassetteWhere | undefined) => where !== undefined && "target" in where;
  return (seam(recorded) || seam(now)) && firstDifference(recorded, now) !== undefined;
}

/**
 * `conversation[3].content` → `the assistant's answer to turn 2`: where in the conversation a user
 * was sent a difference is, by the turn whose message or answer it is.
 */
function entryOf(path: string, request: UserTurnRequest): string | undefined {
  const index = /^conversation\[(\d+)\]/.exec(path)?.[1];
  const entry = index === undefined ? undefined : request.conversation[Number(index)];
  if (!entry) return undefined;
  const turn = request.conversation.slice(0, Number(index) + 1).filter((each) => each.role === "user").length;
  return entry.role === "assistant" ? `the assistant's answer to turn ${turn}` : `the message of turn ${turn}`;
}
