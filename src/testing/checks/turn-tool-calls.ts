import type { ChildRun, ExecutionEntry, MemoryEntry, ToolCall } from "../../engine/session-document.ts";
import type { CalledTool } from "./called-tool.ts";
import { toolCallArgs, toolCallOutput } from "./tool-call-values.ts";
import type { SessionView } from "./session-view.ts";

type Run = Pick<ChildRun, "memory" | "execution">;

/** A logged call's arguments, and the tool message that answered it in the step's memory, if one did. */
interface Logged {
  args: unknown;
  answer?: string;
}

/**
 * The arguments and output of each logged tool call of a run, in its log's order. The log keeps a
 * call's name and outcome but not its arguments; the step's memory keeps the assistant's tool calls
 * with them, and the engine logs every call of a reply, once, in the reply's order, so the step's
 * calls and its log's tool entries pair one to one. Each call is answered in the same memory by a
 * tool message with its id: what the tool returned, as the model was told it.
 */
function loggedCalls(run: Run): Map<ExecutionEntry, Logged> {
  const calls = new Map<string, ToolCall[]>();
  const answers = new Map<string, string>();
  for (const [step, entries] of Object.entries(run.memory)) {
    calls.set(
      step,
      entries.flatMap((entry: MemoryEntry) => (entry.role === "assistant" ? (entry.toolCalls ?? []) : [])),
    );
    for (const entry of entries) if (entry.role === "tool") answers.set(`${step}\n${entry.toolCallId}`, entry.content);
  }
  const seen = new Map<string, number>();
  const logged = new Map<ExecutionEntry, Logged>();
  for (const entry of run.execution) {
    if (entry.kind !== "tool") continue;
    const index = seen.get(entry.step) ?? 0;
    seen.set(entry.step, index + 1);
    const call = calls.get(entry.step)?.[index];
    const answer = call && answers.get(`${entry.step}\n${call.id}`);
    logged.set(entry, {
      args: call ? toolCallArgs(call.arguments) : undefined,
      ...(answer === undefined ? {} : { answer }),
    });
  }
  return logged;
}

/** A logged call as `expectToolCalls` matches it: a refused call (`invalid`) failed, the model told why in its output's error. */
function calledTool(entry: ExecutionEntry, logged: Logged | undefined): CalledTool {
  const failed = entry.outcome === "invalid";
  const answer = logged?.answer;
  const output = answer === undefined ? undefined : failed ? { error: answer } : toolCallOutput(answer);
  return {
    name: entry.name,
    args: logged?.args,
    ...(output === undefined ? {} : { output }),
    status: failed ? "failed" : "returned",
    result: entry.outcome,
  };
}

/**
 * The tools the session's turns called, a turn at a time: `(turn) => calls` in the order they ran,
 * a nested run's tools standing where its log entry does, before the parent's tool that started it
 * returned. Each run's memory is paired with its log once, however many turns are asked for.
 */
export function toolCallsOfTurns(document: SessionView): (turn: number) => CalledTool[] {
  const paired = new Map<Run, Map<ExecutionEntry, Logged>>();
  const loggedOf = (run: Run) => {
    let logged = paired.get(run);
    if (!logged) paired.set(run, (logged = loggedCalls(run)));
    return logged;
  };
  return (turn) => callsOfTurn(document, turn, loggedOf);
}

/** The tools the session's `turn`-th turn called, in the order they ran (see `toolCallsOfTurns`). */
export function turnToolCalls(document: SessionView, turn: number): CalledTool[] {
  return callsOfTurn(document, turn, loggedCalls);
}

function callsOfTurn(
  document: SessionView,
  turn: number,
  loggedOf: (run: Run) => Map<ExecutionEntry, Logged>,
): CalledTool[] {
  const unused = document.children.filter((child) => child.turn === turn);
  const toolsOf = (run: Run): CalledTool[] => {
    const logged = loggedOf(run);
    return run.execution
      .filter((entry) => entry.turn === turn)
      .flatMap((entry) => {
        if (entry.kind === "tool") return [calledTool(entry, logged.get(entry))];
        const index = unused.findIndex((child) => child.flow === entry.name && child.parentStep === entry.step);
        if (index < 0) return [];
        const [child] = unused.splice(index, 1);
        return toolsOf(child!);
      });
  };
  return toolsOf(document);
}
