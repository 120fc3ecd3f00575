import { isDeepStrictEqual } from "node:util";
import type { CalledTool } from "../../checks/called-tool.ts";
import { show } from "../../scenario/show.ts";
import type { MastraAnswer } from "./mastra-answer.ts";
import type { StoredMessage } from "./mastra-client.ts";

// @mastra/memory drops its own working-memory tool from every message it saves
// (`updateMessageToHideWorkingMemoryV2`): the answer names such a call, the thread never holds it.
const UNSTORED_TOOLS = new Set(["updateWorkingMemory"]);

/** A tool call as a thread stores it: a `tool-invocation` part of an assistant message. */
interface StoredInvocation {
  toolCallId?: unknown;
  toolName?: unknown;
  args?: unknown;
  state?: unknown;
  result?: unknown;
  errorText?: unknown;
}

/**
 * What differs between a turn's answer and the messages its thread stored: the turn's user message
 * must be the thread's last, followed by the assistant's message (under the answer's message id,
 * where it names one) whose text is the answer's, holding the answer's tool calls with their
 * arguments and outcomes. Empty when they agree.
 */
export function storedTurnProblems(stored: readonly StoredMessage[], input: string, answer: MastraAnswer): string[] {
  const asked = stored.findLastIndex((message) => message.role === "user");
  if (asked === -1 || textOf(stored[asked]!) !== input)
    return [
      `the thread's last user message is ${asked === -1 ? "none" : show(textOf(stored[asked]!))}, not the turn's ${show(input)}`,
    ];
  const replies = stored.slice(asked + 1).filter((message) => message.role === "assistant");
  if (replies.length === 0) return ["the thread holds no assistant message after the turn's user message"];
  const problems: string[] = [];
  if (answer.messageId !== undefined && !replies.some((message) => message.id === answer.messageId))
    problems.push(
      `the answer's message ${answer.messageId} is not stored (stored: ${replies.map((m) => m.id).join(", ")})`,
    );
  const text = replies.map(textOf).join("");
  if (text !== answer.text) problems.push(`the stored text is ${show(text)}, the answer's ${show(answer.text)}`);
  return [...problems, ...callProblems(replies.flatMap(invocationsOf), answer.toolCalls)];
}

function callProblems(stored: StoredInvocation[], answered: readonly CalledTool[]): string[] {
  const problems: string[] = [];
  const byId = new Map(stored.map((invocation) => [invocation.toolCallId, invocation]));
  for (const call of answered.filter((call) => !UNSTORED_TOOLS.has(call.name))) {
    const kept = byId.get(call.id);
    byId.delete(call.id);
    if (kept === undefined) problems.push(`the call ${call.id} of ${call.name} is not stored`);
    else {
      const shown: Record<string, unknown> = { name: kept.toolName, args: kept.args, ...outcomeOf(kept) };
      const differing = Object.entries({ name: call.name, args: call.args, status: call.status, output: call.output })
        .filter(([key, value]) => !isDeepStrictEqual(shown[key], value))
        .map(([key, value]) => `${key} ${show(shown[key])}, the answer's ${show(value)}`);
      if (differing.length) problems.push(`the call ${call.id} of ${call.name} is stored with ${differing.join(", ")}`);
    }
  }
  for (const [id, kept] of byId)
    problems.push(`the stored call ${String(id)} of ${String(kept.toolName)} is not in the answer`);
  return problems;
}

function outcomeOf(kept: StoredInvocation): Pick<CalledTool, "status" | "output"> {
  if (kept.state === "output-error") return { status: "failed", output: { error: kept.errorText } };
  if (kept.state === "result" || kept.state === "output-available") return { status: "returned", output: kept.result };
  return { status: "pending", output: undefined };
}

function partsOf(message: StoredMessage): Record<string, unknown>[] {
  return typeof message.content === "object" && Array.isArray(message.content.parts)
    ? (message.content.parts as Record<string, unknown>[])
    : [];
}

function textOf(message: StoredMessage): string {
  if (typeof message.content === "string") return message.content;
  const parts = partsOf(message);
  if (parts.length === 0) return message.content.content ?? "";
  return parts
    .map((part) => (part["type"] === "text" && typeof part["text"] === "string" ? part["text"] : ""))
    .join("");
}

function invocationsOf(message: StoredMessage): StoredInvocation[] {
  return partsOf(message)
    .filter((part) => part["type"] === "tool-invocation")
    .map((part) => (part["toolInvocation"] ?? {}) as StoredInvocation);
}
