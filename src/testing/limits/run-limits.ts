import { AsyncLocalStorage } from "node:async_hooks";
import { RunArbiter, type Grant, type HoldSpec, type Note } from "./run-arbiter.ts";

/** A slot held: a skip instead when the run's token budget is spent before it was granted. */
export interface Held {
  skip?: string;
  release(): void;
}

/** Where a conversation asks for its slots. */
export interface RunLimits {
  /** Waits for the slot; an aborted `signal` withdraws the ask and rejects. */
  hold(spec: HoldSpec, signal?: AbortSignal | null): Promise<Held>;
  /** Resolves once noted, so a grant that reads it (the token budget) never runs ahead of it. */
  note(note: Note): Promise<void>;
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error("aborted");
}

function localLimits(arbiter: RunArbiter): RunLimits {
  return {
    hold: (spec, signal) =>
      new Promise((resolve, reject) => {
        if (signal?.aborted) return reject(abortError(signal));
        // The arbiter may grant at once, inside `hold`: `release` is only read once it is given back.
        let release = () => undefined as void;
        const withdraw = () => {
          release();
          reject(abortError(signal!));
        };
        signal?.addEventListener("abort", withdraw, { once: true });
        release = arbiter.hold(spec, (grant: Grant) => {
          signal?.removeEventListener("abort", withdraw);
          resolve({ ...grant, release: () => release() });
        });
      }),
    note: async (note) => arbiter.note(note),
  };
}

/** The run's one arbiter: every conversation of this process asks it, run-specs' suites and a spec run alone alike. */
export const runArbiter = new RunArbiter();

const limits = localLimits(runArbiter);

/** The same slots, left out of the run's summary. */
const uncounted: RunLimits = {
  hold: (spec, signal) => limits.hold({ ...spec, uncounted: true }, signal),
  note: (note) => limits.note({ ...note, uncounted: true }),
};

// Whose a conversation's limits are: the provider gates are made deep in its target, which knows
// nothing of the run, so that travels with the call that starts it.
const own = new AsyncLocalStorage<true>();

/**
 * Calls `start` so that the limits it and all it calls take (`runLimits`) are counted in the
 * summary the run prints: a suite of the run's own does. Any other (a spec's fixture suite writing
 * its artifacts elsewhere, a target a spec starts itself) is limited alike, but left out of it.
 */
export function asTheRunsOwn<T>(start: () => T): T {
  return own.run(true, start);
}

/** The limits this process's conversations ask for their slots. */
export function runLimits(): RunLimits {
  return own.getStore() ? limits : uncounted;
}
