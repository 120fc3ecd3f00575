import { show } from "../../scenario/show.ts";
import { QUOTED_BODY } from "../request-target.ts";
import { invalidStream } from "./json-data-events.ts";
import { isToolUIPart, toolNameOf, type ToolUIPart, type UIMessage, type UIMessagePart } from "./ui-message.ts";
import { updateToolPart, type ToolUpdate } from "./update-tool-part.ts";
import { contentPart, isContentChunk } from "./content-part.ts";

type Chunk = Record<string, unknown>;

/** A tool call whose input is still streaming, by its call id. */
interface PartialToolCall {
  text: string;
  toolName: string;
  dynamic: boolean;
  inputEncoding?: unknown;
  title?: unknown;
  toolMetadata?: unknown;
}

/** The chunk types of the AI SDK 7 UI message stream that are not `data-<name>`. */
const CHUNK_TYPES = new Set([
  "start",
  "finish",
  "abort",
  "message-metadata",
  "error",
  "start-step",
  "finish-step",
  "reset-step",
  "text-start",
  "text-delta",
  "text-end",
  "reasoning-start",
  "reasoning-delta",
  "reasoning-end",
  "custom",
  "source-url",
  "source-document",
  "file",
  "reasoning-file",
  "steering-message",
  "tool-input-start",
  "tool-input-delta",
  "tool-input-available",
  "tool-input-error",
  "tool-approval-request",
  "tool-approval-response",
  "tool-output-available",
  "tool-output-error",
  "tool-output-denied",
]);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The AI SDK's `mergeObjects`: plain objects merged key by key, deeply; an undefined value skipped; anything else replaces. */
function mergedMetadata(base: unknown, next: unknown): unknown {
  if (base === undefined) return next;
  if (next === undefined) return base;
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [key, value] of Object.entries(next as Record<string, unknown>)) {
    if (value === undefined || key === "__proto__" || key === "constructor" || key === "prototype") continue;
    out[key] = isPlainObject(value) && isPlainObject(out[key]) ? mergedMetadata(out[key], value) : value;
  }
  return out;
}

function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The assistant message a UI message stream builds, folded one chunk at a time as the AI SDK's chat
 * client folds it (`processUIMessageStream`): text and reasoning parts with their state, a
 * `step-start` part per step, one `tool-<name>` part per call moved through its states, `data-<name>`
 * parts (one with an id replaced in place; transient ones not kept), metadata merged. It continues
 * `last` when that is an assistant message, as the client does after a tool's output or approval.
 * What the client refuses (a delta for a part never started, an output for a call never named, a
 * chunk type the protocol lacks) is `target_invalid_answer`. A tool input still streaming is kept
 * parsed only once its text is whole JSON: the client's partial-JSON repair is not repeated.
 */
export class UiMessageFold {
  readonly message: UIMessage;
  /** This stream's text deltas, joined. */
  text = "";
  /** Each `data-<name>` chunk's last `data`, by name, transient ones too. */
  readonly data: Record<string, unknown> = {};
  /** The tool calls this stream created or moved on, by call id. */
  readonly touched = new Set<string>();
  readonly #stream: string;
  #activeText = new Map<string, UIMessagePart>();
  #activeReasoning = new Map<string, UIMessagePart>();
  #partialToolCalls = new Map<string, PartialToolCall>();

  constructor(stream: string, messageId: string, last?: UIMessage) {
    this.#stream = stream;
    this.message = last?.role === "assistant" ? structuredClone(last) : { id: messageId, role: "assistant", parts: [] };
  }

  /** Folds chunk number `index` (from 0) into the message. */
  add(chunk: Chunk, index: number): void {
    const type = chunk["type"];
    if (typeof type !== "string") throw this.#invalid(index, `has no "type": ${show(chunk, QUOTED_BODY)}`);
    if (type.startsWith("data-")) return this.#data(chunk);
    if (!CHUNK_TYPES.has(type))
      throw this.#invalid(
        index,
        `has the type ${show(type)}, which the AI SDK 7 UI message stream does not have: ${show(chunk, QUOTED_BODY)}`,
      );
    if (type.startsWith("tool-")) return this.#tool(chunk, index, type);
    if (type.startsWith("text-") || (type.startsWith("reasoning-") && type !== "reasoning-file"))
      return type.endsWith("-start")
        ? this.#startText(chunk, type === "text-start")
        : this.#moveText(chunk, index, type);
    if (isContentChunk(type)) return void this.message.parts.push(contentPart(chunk, type));
    this.#control(chunk, type);
  }

  /** A chunk that makes no content: the message's start and finish, its metadata, its steps, an error. */
  #control(chunk: Chunk, type: string): void {
    switch (type) {
      case "error":
        throw invalidStream(
          `the ${this.#stream} stream has an error part: ${show(chunk["errorText"], QUOTED_BODY)}; see the server's log`,
        );
      case "abort":
        throw invalidStream(`the ${this.#stream} stream was aborted: ${show(chunk["reason"] ?? "no reason given")}`);
      case "start":
        if (typeof chunk["messageId"] === "string") this.message.id = chunk["messageId"];
        return this.#metadata(chunk["messageMetadata"]);
      case "finish":
      case "message-metadata":
        return this.#metadata(chunk["messageMetadata"]);
      case "start-step":
        return void this.message.parts.push({ type: "step-start" });
      case "reset-step":
        return this.#resetStep();
    }
  }

  #invalid(index: number, what: string) {
    return invalidStream(`part ${index + 1} of the ${this.#stream} stream ${what}`);
  }

  #metadata(metadata: unknown): void {
    if (metadata == null) return;
    this.message.metadata = this.message.metadata == null ? metadata : mergedMetadata(this.message.metadata, metadata);
  }

  #data(chunk: Chunk): void {
    const type = chunk["type"] as string;
    this.data[type.slice("data-".length)] = chunk["data"];
    if (chunk["transient"] === true) return;
    const existing =
      chunk["id"] == null
        ? undefined
        : this.message.parts.find((part) => part.type === type && part["id"] === chunk["id"]);
    if (existing) existing["data"] = chunk["data"];
    else this.message.parts.push(chunk as UIMessagePart);
  }

  #startText(chunk: Chunk, text: boolean): void {
    const part: UIMessagePart = text
      ? { type: "text", text: "", providerMetadata: chunk["providerMetadata"], state: "streaming" }
      : {
          type: "reasoning",
          id: chunk["id"],
          text: "",
          providerMetadata: chunk["providerMetadata"],
          state: "streaming",
        };
    (text ? this.#activeText : this.#activeReasoning).set(String(chunk["id"]), part);
    this.message.parts.push(part);
  }

  #moveText(chunk: Chunk, index: number, type: string): void {
    const text = type.startsWith("text-");
    const active = text ? this.#activeText : this.#activeReasoning;
    const id = String(chunk["id"]);
    const part = active.get(id);
    if (!part) {
      const start = text ? "text-start" : "reasoning-start";
      throw this.#invalid(
        index,
        `is a ${type} for the part ${show(id)}, which no ${start} began; the AI SDK's client refuses it. ` +
          `A route should send ${start}, its deltas, then ${text ? "text-end" : "reasoning-end"}`,
      );
    }
    if (type.endsWith("-delta")) {
      part["text"] = `${part["text"] as string}${chunk["delta"] as string}`;
      if (text) this.text += chunk["delta"] as string;
    } else {
      part["state"] = "done";
      if (text && chunk["citations"] != null) part["citations"] = chunk["citations"];
      active.delete(id);
    }
    part["providerMetadata"] = chunk["providerMetadata"] ?? part["providerMetadata"];
  }

  #resetStep(): void {
    const parts = this.message.parts;
    const start = parts.findLastIndex((part) => part.type === "step-start");
    this.#activeText = new Map();
    this.#activeReasoning = new Map();
    this.#partialToolCalls = new Map();
    parts.splice(start + 1);
  }

  /** The parts of the current step: those after the last `step-start`. */
  #currentStep(): UIMessagePart[] {
    const parts = this.message.parts;
    return parts.slice(parts.findLastIndex((part) => part.type === "step-start") + 1);
  }

  /** The call's part, in the current step or else any earlier one; a chunk for a call never named is refused. */
  #named(chunk: Chunk, index: number): ToolUIPart {
    const id = chunk["toolCallId"];
    const current = this.#currentStep().find((part) => isToolUIPart(part) && part.toolCallId === id);
    const part = current ?? this.message.parts.findLast((part) => isToolUIPart(part) && part.toolCallId === id);
    if (part) return part as ToolUIPart;
    throw this.#invalid(
      index,
      `is a ${chunk["type"] as string} for the tool call ${show(id)}, which no tool-input-start or ` +
        "tool-input-available named before; the AI SDK's client refuses it. The route must send a call's input " +
        "before its output, under the same toolCallId",
    );
  }

  #tool(chunk: Chunk, index: number, type: string): void {
    const id = String(chunk["toolCallId"]);
    if (type === "tool-approval-response") return this.#approvalResponse(chunk, index);
    if (type.startsWith("tool-input-")) this.#toolInput(chunk, index, type, id);
    else this.#toolOutcome(chunk, index, type, id);
    this.touched.add(id);
  }

  /** A call named, its input streaming, whole, or refused as invalid. */
  #toolInput(chunk: Chunk, index: number, type: string, id: string): void {
    const named = {
      toolCallId: id,
      toolName: String(chunk["toolName"]),
      providerExecuted: chunk["providerExecuted"],
      providerMetadata: chunk["providerMetadata"],
      toolMetadata: chunk["toolMetadata"],
    };
    if (type === "tool-input-start") {
      const dynamic = chunk["dynamic"] === true;
      const { inputEncoding, title } = chunk;
      this.#partialToolCalls.set(id, {
        text: "",
        toolName: named.toolName,
        dynamic,
        inputEncoding,
        title,
        toolMetadata: named.toolMetadata,
      });
      return this.#update(dynamic, { ...named, state: "input-streaming", inputEncoding, input: undefined, title });
    }
    if (type === "tool-input-available")
      return this.#update(chunk["dynamic"] === true, {
        ...named,
        state: "input-available",
        input: chunk["input"],
        title: chunk["title"],
      });
    if (type === "tool-input-error") {
      const existing = this.#currentStep().find((part) => isToolUIPart(part) && part.toolCallId === id);
      const dynamic = existing ? existing.type === "dynamic-tool" : chunk["dynamic"] === true;
      return this.#update(dynamic, {
        ...named,
        state: "output-error",
        input: chunk["input"],
        errorText: chunk["errorText"],
      });
    }
    const partial = this.#partialToolCalls.get(id);
    if (!partial)
      throw this.#invalid(
        index,
        `is a tool-input-delta for the tool call ${show(id)}, which no tool-input-start began`,
      );
    partial.text += String(chunk["inputTextDelta"]);
    this.#update(partial.dynamic, {
      toolCallId: id,
      toolName: partial.toolName,
      state: "input-streaming",
      inputEncoding: partial.inputEncoding,
      input: partial.inputEncoding === "text" ? partial.text : parsedJson(partial.text),
      rawInput: partial.text,
      title: partial.title,
      toolMetadata: partial.toolMetadata,
    });
  }

  /** A named call's approval asked, its output, its error, or its denial. */
  #toolOutcome(chunk: Chunk, index: number, type: string, id: string): void {
    const part = this.#named(chunk, index);
    if (type === "tool-output-denied") {
      part.state = "output-denied";
      return;
    }
    if (type === "tool-approval-request") {
      part.state = "approval-requested";
      part.approval = {
        id: chunk["approvalId"],
        ...(chunk["approvalDescriptor"] == null ? {} : { descriptor: chunk["approvalDescriptor"] }),
        ...(Object.hasOwn(chunk, "inputSchemaInput") ? { inputSchemaInput: chunk["inputSchemaInput"] } : {}),
        ...(chunk["reason"] == null ? {} : { requestReason: chunk["reason"] }),
        ...(chunk["isAutomatic"] === true ? { isAutomatic: true } : {}),
        ...(chunk["signature"] == null ? {} : { signature: chunk["signature"] }),
      };
      return;
    }
    const available = type === "tool-output-available";
    const dynamic = part.type === "dynamic-tool";
    const update: ToolUpdate = {
      toolCallId: id,
      toolName: toolNameOf(part),
      state: available ? "output-available" : "output-error",
      input: part.input,
      providerExecuted: chunk["providerExecuted"],
      providerMetadata: chunk["providerMetadata"],
      title: part["title"],
      toolMetadata: chunk["toolMetadata"] ?? part["toolMetadata"],
    };
    if (available) Object.assign(update, { output: chunk["output"], preliminary: chunk["preliminary"] });
    else Object.assign(update, { errorText: chunk["errorText"], ...(dynamic ? {} : { rawInput: part.rawInput }) });
    this.#update(dynamic, update, part);
  }

  #approvalResponse(chunk: Chunk, index: number): void {
    const approvalId = chunk["approvalId"];
    const found = this.message.parts.find((part) => isToolUIPart(part) && part.approval?.["id"] === approvalId);
    if (!found)
      throw this.#invalid(
        index,
        `is a tool-approval-response for the approval ${show(approvalId)}, which no tool-approval-request asked`,
      );
    const part = found as ToolUIPart;
    part.state = "approval-responded";
    part.approval = {
      ...(part.approval ?? {}),
      id: approvalId,
      approved: chunk["approved"],
      ...(chunk["reason"] == null ? {} : { reason: chunk["reason"] }),
    };
    if (chunk["providerExecuted"] != null) part["providerExecuted"] = chunk["providerExecuted"];
    if (chunk["providerMetadata"] != null) part["callProviderMetadata"] = chunk["providerMetadata"];
    this.touched.add(part.toolCallId);
  }

  #update(dynamic: boolean, update: ToolUpdate, existing?: ToolUIPart): void {
    updateToolPart(this.message.parts, this.#currentStep(), dynamic, update, existing);
  }
}
