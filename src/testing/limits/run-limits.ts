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

/**
 * The limits a conversation asks `arbiter` (its run's) for its slots. `counted`: a conversation of
 * one of the run's own suites, whose slots and requests the summary the run prints counts. Any
 * other (a spec's fixture suite writing its artifacts elsewhere, a target a spec starts itself) is
 * limited alike, but left out of it.
 */
export function runLimits(arbiter: RunArbiter, counted: boolean): RunLimits {
  const limits = localLimits(arbiter);
  if (counted) return limits;
  return {
    hold: (spec, signal) => limits.hold({ ...spec, uncounted: true }, signal),
    note: (note) => limits.note({ ...note, uncounted: true }),
  };
}
