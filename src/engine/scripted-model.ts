import { FlowcheckError } from "../errors.ts";
import type { ChatModel, ModelContext, ModelReply, ModelRequest } from "./chat-model.ts";
import type { FlowDefinition } from "./flow.ts";
import type { ModelWrapper } from "./model-factory.ts";
import type { MemoryEntry } from "./session-document.ts";
import type { ScriptedUser } from "./scripted-user.ts";

export interface ScriptRequest extends ModelRequest {
  context: ModelContext;
  /**
   * The last message of the step's memory: the user's input, a tool's result, or on a step just
   * entered by `advance` the hand-off (`role: "handoff"`, `from` the step that advanced).
   */
  latest: MemoryEntry | undefined;
}

/** Answers a request, or returns undefined when it has no answer: that fails the turn loudly. */
export type Script = (request: ScriptRequest) => ModelReply | undefined;

/** Scripts by flow name; a flow's children need scripts of their own. */
export type Scripts = Readonly<Record<string, Script>>;

export function scriptedText(content: string): ModelReply {
  return { content, toolCalls: [] };
}

/** Tool calls with ids that are stable from run to run, so transcripts compare cleanly. */
export function scriptedToolCalls(calls: { name: string; args: Record<string, unknown> }[]): ModelReply {
  return {
    content: "",
    toolCalls: calls.map((call, index) => ({
      id: `call_${index + 1}_${call.name}`,
      name: call.name,
      arguments: JSON.stringify(call.args),
    })),
  };
}

export function preview(text: string, length = 120): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > length ? `${flat.slice(0, length)}…` : flat;
}

function describeRole(entry: MemoryEntry): string {
  return entry.role === "handoff" ? `handoff from ${entry.from}` : entry.role;
}

class ScriptedChatModel implements ChatModel {
  readonly #script: Script;
  readonly #context: ModelContext;

  constructor(script: Script, context: ModelContext) {
    this.#script = script;
    this.#context = context;
  }

  async invoke(request: ModelRequest): Promise<ModelReply> {
    const latest = request.messages.at(-1);
    const reply = this.#script({ ...request, context: this.#context, latest });
    if (reply) return reply;
    const said = latest ? `${describeRole(latest)} "${preview(latest.content)}"` : "none";
    throw new FlowcheckError(
      "script_unmatched",
      `The scripted model of ${this.#context.flow} has no answer for step ${this.#context.step}. ` +
        `System prompt: "${preview(request.system)}". Latest message: ${said}. ` +
        "Add a branch for this prompt and message to the flow's script, or run it with FLOW_MODEL=live.",
    );
  }
}

/**
 * The scripted layer of an app's models: the flows named in `scripts` get a deterministic model
 * answering from their script; every other flow gets the model of the layers under it.
 *
 * @example
 * const models = wrapModels(liveModel(settings), scriptedModel({ FeedbackFlow: feedbackFlowScript }));
 */
export function scriptedModel(scripts: Scripts): ModelWrapper {
  return (context, make) => {
    const script = scripts[context.flow];
    return script ? new ScriptedChatModel(script, context) : make();
  };
}

/** A flow as an app registers it: its definition and, for the scripted mode, its scripts. */
export interface FlowEntry {
  flow: FlowDefinition;
  /** Scripts for the flow and each of its children, by flow name. */
  scripts?: Scripts;
  /** The flow's scripted user, which plays its scenarios' simulated users in the scripted mode. */
  user?: ScriptedUser;
}
