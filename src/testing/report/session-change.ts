import { isDeepStrictEqual } from "node:util";
import type { StepStates } from "../../engine/session-document.ts";
import type { SessionView, SessionViewHead } from "../checks/session-view.ts";
import type { SessionChange } from "./run-results.ts";

type StateChange = NonNullable<SessionChange["state"]>[string];

function stepChange(before: Record<string, unknown>, after: Record<string, unknown>): StateChange | undefined {
  const change: StateChange = {};
  for (const [key, value] of Object.entries(after)) {
    if (!(key in before)) (change.added ??= {})[key] = value;
    else if (!isDeepStrictEqual(before[key], value)) (change.changed ??= {})[key] = { from: before[key], to: value };
  }
  const removed = Object.keys(before).filter((key) => !(key in after));
  if (removed.length) change.removed = removed;
  return Object.keys(change).length ? change : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function stateChange(before: StepStates, after: StepStates): SessionChange["state"] {
  const steps = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const state: NonNullable<SessionChange["state"]> = {};
  for (const step of steps) {
    const [from, to] = [before[step] as unknown, after[step] as unknown];
    // A target of another kind's state key may hold any value: it changes as a whole.
    if ((from !== undefined && !isObject(from)) || (to !== undefined && !isObject(to))) {
      if (!isDeepStrictEqual(from, to)) state[step] = { value: { from, to } };
      continue;
    }
    const change = stepChange(before[step] ?? {}, after[step] ?? {});
    if (change) state[step] = change;
  }
  return Object.keys(state).length ? state : undefined;
}

/**
 * What a turn changed in the stored head, `before` undefined for the turn that created the
 * session: the step and run status when they moved, each step's state keys, and the nested runs
 * it started. The execution log is not in a head; `executionOfTurn` adds it from the whole session.
 */
export function sessionChange(before: SessionViewHead | undefined, after: SessionViewHead): SessionChange {
  const change: SessionChange = {};
  if (before?.flow.currentStep !== after.flow.currentStep)
    change.step = { from: before?.flow.currentStep ?? null, to: after.flow.currentStep };
  if (before?.runStatus !== after.runStatus)
    change.runStatus = { from: before?.runStatus ?? null, to: after.runStatus };
  const state = stateChange(before?.steps ?? {}, after.steps);
  if (state) change.state = state;
  const started = after.children.slice(before?.children.length ?? 0);
  if (started.length)
    change.children = started.map(({ flow, parentStep, runStatus, currentStep }) => ({
      flow,
      parentStep,
      runStatus,
      currentStep,
    }));
  return change;
}

/** The execution entries the session's `turns`-th turn wrote. */
export function executionOfTurn(document: Pick<SessionView, "execution">, turns: number): SessionChange["execution"] {
  const entries = document.execution.filter((entry) => entry.turn === turns);
  return entries.length ? entries : undefined;
}
