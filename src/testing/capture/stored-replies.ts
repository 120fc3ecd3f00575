import { FLOW_MEMORY, type MemoryEntry, type SessionDocument } from "../../engine/session-document.ts";
import { whereOf, type ReplyQueues } from "./reply-queues.ts";

function repliesIn(flow: string, memory: Record<string, MemoryEntry[]>, queues: ReplyQueues): void {
  for (const [namespace, entries] of Object.entries(memory)) {
    if (namespace === FLOW_MEMORY) continue;
    const where = whereOf(flow, namespace);
    for (const entry of entries) {
      if (entry.role !== "assistant") continue;
      queues.set(where, [...(queues.get(where) ?? []), { content: entry.content, toolCalls: entry.toolCalls ?? [] }]);
    }
  }
}

/**
 * The model's replies a stored session holds: every assistant entry of each step's memory (the
 * flow-wide `flow` namespace repeats the answers, so it is left out), and those of its child runs,
 * in the order the runs were started.
 */
export function storedReplies(document: SessionDocument): ReplyQueues {
  const queues: ReplyQueues = new Map();
  repliesIn(document.flow.name, document.memory, queues);
  for (const child of document.children) repliesIn(child.flow, child.memory, queues);
  return queues;
}

/** The user's messages of a stored session, in order: its inputs. */
export function storedInputs(document: SessionDocument): string[] {
  return (document.memory[FLOW_MEMORY] ?? []).flatMap((entry) => (entry.role === "user" ? [entry.content] : []));
}
