import type { ModelReply } from "../../engine/chat-model.ts";
import { FlowcheckError } from "../../errors.ts";
import type { CalledTool } from "../checks/called-tool.ts";
import { toolCallArgs, toolCallOutput } from "../checks/tool-call-values.ts";
import { malformedToolCall } from "./malformed-tool-call.ts";
import type { SeamCall, SeamOutcome, SeamSource, SeamUsage } from "./seam-call.ts";
import type { SeamMessage } from "./seam-request.ts";
import { type CallPlace, SeamTurn, type SeamTurnRecord, type SeamTurnStart } from "./seam-turn.ts";
import { truncatedReply } from "./truncated-reply.ts";
import type { TurnsInFlight } from "./turns-in-flight.ts";

// What LangGraph's ToolNode sends back for a tool that threw (its default handleToolErrors): the
// wire has no status for a tool's result, and the agent's thread marks such a message an error, so
// the call failed, its output the same `{ error: <the text> }` as a LangGraph target reads there.
const TOOL_NODE_ERROR = /^Error: [\s\S]*\n Please fix your mistakes\.$/;

/** How `timeout` holds a call when the fault names no `holdMs`. */
const DEFAULT_HOLD_MS = 2000;

/** A conversation as the run opens it at the seam. */
export interface SeamConversationOptions {
  readonly target: string;
  readonly flow: string;
  /** How messages name the conversation, e.g. its flow and scenario. */
  readonly label: string;
  readonly source: SeamSource;
}

/**
 * One conversation's side of the seam: its turns, one at a time, the calls credited to them, and
 * the tool calls its model asked for, each under an id unique in the conversation.
 */
export class SeamConversation {
  readonly target: string;
  readonly flow: string;
  readonly label: string;
  readonly #source: SeamSource;
  readonly #turns: TurnsInFlight<SeamConversation>;
  readonly #inputs: string[] = [];
  /** Every tool call the model asked for in this conversation, by the id the seam gave it. */
  readonly #asked = new Map<string, CalledTool>();
  #calls = 0;
  #turn: SeamTurn | undefined;
  #closed = false;

  constructor(options: SeamConversationOptions, turns: TurnsInFlight<SeamConversation>) {
    this.target = options.target;
    this.flow = options.flow;
    this.label = options.label;
    this.#source = options.source;
    this.#turns = turns;
  }

  /** Opens a turn, once no other conversation's turn with the same input is in flight. */
  async beginTurn(start: SeamTurnStart): Promise<void> {
    if (this.#turn) throw new Error(`${this.label}: turn ${start.number} began before turn ${this.#turn.number} ended`);
    const turn = new SeamTurn(start, [...this.#inputs]);
    await this.#turns.admit(turn, this);
    // Closed while it waited (its scenario stopped): a turn let in now would hold its input forever.
    if (this.#closed) return this.#turns.release(turn);
    this.#inputs.push(turn.key);
    this.#turn = turn;
  }

  /** Ends the turn in flight: what the seam saw of it. Lets a turn waiting on its input begin. */
  endTurn(): SeamTurnRecord {
    const turn = this.#turn;
    if (!turn) throw new Error(`${this.label}: a turn ended that never began`);
    this.#turn = undefined;
    this.#turns.release(turn);
    const toolCalls = turn.asked.flatMap((id) => {
      const called = this.#asked.get(id);
      return called ? [{ ...called }] : [];
    });
    return { calls: turn.calls, toolCalls, problems: turn.problems };
  }

  close(): void {
    this.#closed = true;
    if (this.#turn) this.endTurn();
  }

  /** Answers a call credited to `turn`, a turn of this conversation. */
  async answer(call: SeamCall, turn: SeamTurn): Promise<SeamOutcome> {
    this.#pairOutputs(call.request.messages);
    const place = turn.place(call.body, () => ++this.#calls);
    const where = `model call ${place.index} (${call.api}, model ${call.model})`;
    if (call.unsupported) {
      turn.fail(`${where} asked for what the seam does not speak: ${call.unsupported}`);
      return { refused: call.unsupported, code: "seam_unsupported" };
    }
    const fault = turn.faultOn(place);
    if (fault?.kind === "error") return { fault: "error" };
    if (fault?.kind === "timeout") return { fault: "timeout", holdMs: fault.holdMs ?? DEFAULT_HOLD_MS };
    if (fault?.kind === "rate-limit" && !place.retry) return { fault: "rate-limit" };
    const answered = await this.#ask(call, turn, where);
    if ("refused" in answered) return answered;
    let reply = answered.reply;
    if (fault?.kind === "malformed-tool-call") reply = this.#malformed(reply, call, turn, where);
    if (fault?.kind === "truncated") reply = truncatedReply(reply);
    return this.#outcome(this.#renumbered(reply, place, turn), fault?.kind === "truncated", answered.usage);
  }

  #outcome(reply: ModelReply, truncated: boolean, usage: SeamUsage | undefined): SeamOutcome {
    return { reply, ...(truncated ? { truncated } : {}), ...(usage ? { usage } : {}) };
  }

  async #ask(
    call: SeamCall,
    turn: SeamTurn,
    where: string,
  ): Promise<{ reply: ModelReply; usage?: SeamUsage } | { refused: string; code: string }> {
    const context = { target: this.target, flow: this.flow, model: call.model, api: call.api };
    try {
      return await this.#source({ ...call.request, context }, call);
    } catch (error) {
      if (!(error instanceof FlowcheckError)) {
        turn.fail(`${where}: the model's source failed: ${String(error)}`);
        throw error;
      }
      turn.fail(`${where}: ${error.code}: ${error.message}`);
      return { refused: error.message, code: error.code };
    }
  }

  #malformed(reply: ModelReply, call: SeamCall, turn: SeamTurn, where: string): ModelReply {
    const malformed = malformedToolCall(reply, call.request.tools);
    if (malformed) return malformed;
    turn.fail(
      `${where}: the turn's modelFault "malformed-tool-call" needs a tool call, but the reply has none ` +
        "and the app offered no tools; put the fault on a call that offers tools.",
    );
    return reply;
  }

  /**
   * The reply with its tool calls under ids unique in the conversation and the same from run to run
   * (`call_<n>_<tool>`, n the conversation's call): a script's ids are unique only in its reply, and
   * a stack that keys tool results by id would mix up two turns' calls. Remembers each for the turn.
   */
  #renumbered(reply: ModelReply, place: CallPlace, turn: SeamTurn): ModelReply {
    const seen = new Map<string, number>();
    const toolCalls = reply.toolCalls.map((toolCall) => {
      const repeat = (seen.get(toolCall.name) ?? 0) + 1;
      seen.set(toolCall.name, repeat);
      const id = `call_${place.number}_${toolCall.name}${repeat > 1 ? `_${repeat}` : ""}`;
      if (!this.#asked.has(id)) {
        this.#asked.set(id, { name: toolCall.name, args: toolCallArgs(toolCall.arguments), status: "pending", id });
        turn.asked.push(id);
      }
      return { ...toolCall, id };
    });
    return { ...reply, toolCalls };
  }

  /**
   * Pairs each tool call still pending with the output the app now sends back under its id; an
   * output that is only `{ "error": "<text>" }` (what the AI SDK sends for a tool that threw, and
   * how flowcheck writes a failed call's output) marks the call failed, and so does LangGraph's
   * text for one, taken as that error.
   */
  #pairOutputs(messages: readonly SeamMessage[]): void {
    for (const message of messages) {
      if (message.role !== "tool") continue;
      const called = this.#asked.get(message.toolCallId);
      if (called?.status === "pending") {
        called.output = TOOL_NODE_ERROR.test(message.content)
          ? { error: message.content }
          : toolCallOutput(message.content);
        called.status = failedOutput(called.output) ? "failed" : "returned";
      }
    }
  }
}

function failedOutput(output: unknown): boolean {
  if (typeof output !== "object" || output === null) return false;
  const keys = Object.keys(output);
  return keys.length === 1 && typeof (output as { error?: unknown }).error === "string";
}
