import { readPointer } from "../json-pointer.ts";
import type { LanggraphThreadState } from "./langgraph-client.ts";

/** How a target reads one graph's step and completion: JSON Pointers into the thread state. */
export interface LanggraphGraphEntry {
  /** e.g. `/values/step`; by default the node the thread waits at. */
  step?: string;
  /** e.g. `/values/done`; by default, nothing pending (no `next`, no interrupt). */
  completed?: string;
  /** The names the step key takes, for the graph's step list. */
  steps?: string[];
}

export interface LanggraphTurnView {
  /** The pending interrupt's value, else the text of the last AI message after the last user message. */
  answer: string;
  currentStep: string | undefined;
  completed: boolean;
  /** The thread's `values`. */
  state: Record<string, unknown>;
}

/**
 * What a turn left in a LangGraph thread, as the tester's checks read a session: its answer, the
 * step it is at and whether it has ended. A graph that keeps its step in its state names it by the
 * entry's pointers; one that waits at a node with interrupt() needs none.
 *
 * @example langgraphTurnView(state, { step: "/values/step", completed: "/values/done" })
 */
export function langgraphTurnView(state: LanggraphThreadState, graphEntry?: LanggraphGraphEntry): LanggraphTurnView {
  const waiting = state.tasks.find((task) => task.interrupts.length > 0);
  const interrupt = waiting?.interrupts[0];
  const answer = interrupt
    ? typeof interrupt.value === "string"
      ? interrupt.value
      : (JSON.stringify(interrupt.value) ?? "")
    : lastReply(state.values["messages"]);
  // A resumed node that interrupts again is listed in tasks while `next` is empty: the task wins.
  const currentStep =
    graphEntry?.step === undefined ? (waiting?.name ?? state.next[0]) : stepAt(state, graphEntry.step);
  const completed =
    graphEntry?.completed === undefined
      ? state.next.length === 0 && waiting === undefined
      : pointed(state, graphEntry.completed) === true;
  return { answer, currentStep, completed, state: state.values };
}

function pointed(state: LanggraphThreadState, pointer: string): unknown {
  const read = readPointer(state, pointer);
  return read.found ? read.value : undefined;
}

function stepAt(state: LanggraphThreadState, pointer: string): string | undefined {
  const step = pointed(state, pointer);
  return typeof step === "string" ? step : undefined;
}

/**
 * The messages after the last user message: what the turn's run added. A thread's messages are
 * objects with their `type` (`human`, `ai`, `tool`), or `role` as a client may write them.
 */
export function turnMessages(messages: readonly unknown[]): Record<string, unknown>[] {
  const objects = messages.filter(
    (message): message is Record<string, unknown> => typeof message === "object" && message !== null,
  );
  const user = objects.findLastIndex((message) =>
    ["human", "user"].includes(String(message["type"] ?? message["role"])),
  );
  return objects.slice(user + 1);
}

/**
 * The text of the last AI message after the last user message, "" when the turn added none: an
 * older reply would otherwise pass for this turn's answer.
 */
export function lastReply(messages: unknown): string {
  if (!Array.isArray(messages)) return "";
  const reply = turnMessages(messages).findLast((message) =>
    ["ai", "assistant"].includes(String(message["type"] ?? message["role"])),
  );
  return reply === undefined ? "" : messageText(reply["content"]);
}

/** A message's content: a string, or the text of its text blocks. */
export function messageText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((block) => (typeof block === "string" ? block : block?.type === "text" ? String(block.text ?? "") : ""))
    .join("");
}
