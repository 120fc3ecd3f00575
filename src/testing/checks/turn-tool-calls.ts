import type { ChildRun, ExecutionEntry, MemoryEntry, ToolCall } from "../../engine/session-document.ts";
import type { CalledTool } from "./called-tool.ts";
import type { SessionView } from "./session-view.ts";

type Run = Pick<ChildRun, "memory" | "execution">;

function parsed(text: string): unknown {
  try {
    return text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * The arguments of each logged tool call of a run, in its log's order. The log keeps a call's name and
 * outcome but not its arguments; the step's memory keeps the assistant's tool calls with them, and the
 * engine logs every call of a reply, once, in the reply's order, so the step's calls and its log's tool
 * entries pair one to one.
 */
function argumentsByEntry(run: Run): Map<ExecutionEntry, unknown> {
  const calls = new Map<string, ToolCall[]>();
  for (const [step, entries] of Object.entries(run.memory))
    calls.set(
      step,
      entries.flatMap((entry: MemoryEntry) => (entry.role === "assistant" ? (entry.toolCalls ?? []) : [])),
    );
  const seen = new Map<string, number>();
  const args = new Map<ExecutionEntry, unknown>();
  for (const entry of run.execution) {
    if (entry.kind !== "tool") continue;
    const index = seen.get(entry.step) ?? 0;
    seen.set(entry.step, index + 1);
    const call = calls.get(entry.step)?.[index];
    args.set(entry, call ? parsed(call.arguments) : undefined);
  }
  return args;
}

/**
 * The tools the session's `turn`-th turn called, in the order they ran: a nested run's tools stand where
 * its log entry does, before the parent's tool that started it returned.
 */
export function turnToolCalls(document: SessionView, turn: number): CalledTool[] {
  const unused = document.children.filter((child) => child.turn === turn);
  const toolsOf = (run: Run): CalledTool[] => {
    const args = argumentsByEntry(run);
    return run.execution
      .filter((entry) => entry.turn === turn)
      .flatMap((entry) => {
        if (entry.kind === "tool")
          return [
            {
              name: entry.name,
              args: args.get(entry),
              status: entry.outcome === "invalid" ? "failed" : "returned",
              result: entry.outcome,
            } satisfies CalledTool,
          ];
        const index = unused.findIndex((child) => child.flow === entry.name && child.parentStep === entry.step);
        if (index < 0) return [];
        const [child] = unused.splice(index, 1);
        return toolsOf(child!);
      });
  };
  return toolsOf(document);
}
