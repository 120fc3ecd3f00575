import http from "node:http";
import type { Config } from "../../config.ts";
import { RunArbiter, type Grant, type HoldSpec, type Note } from "./run-arbiter.mjs";

/** A slot held: a skip instead when the run's token budget is spent before it was granted. */
export interface Held {
  skip?: string;
  release(): void;
}

/** Where a test process asks for its slots: the run's coordinator, or its own arbiter. */
export interface RunLimits {
  /** Waits for the slot; an aborted `signal` withdraws the ask and rejects. */
  hold(spec: HoldSpec, signal?: AbortSignal | null): Promise<Held>;
  /** Resolves once noted, so a grant that reads it (the token budget) never runs ahead of it. */
  note(note: Note): Promise<void>;
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error("aborted");
}

/** This process's own limits, for a spec run without run-specs (`node --test <spec>`). */
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

/** The limits of the run-specs invocation, held by its coordinator (src/cli/coordinator.mjs). */
function coordinatorLimits(url: string): RunLimits {
  const agent = new http.Agent({ keepAlive: true });
  const post = (path: string, body: unknown, options: http.RequestOptions = {}) =>
    http.request(`${url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, ...options }).end(JSON.stringify(body));
  return {
    hold: (spec, signal) =>
      new Promise((resolve, reject) => {
        if (signal?.aborted) return reject(abortError(signal));
        // A connection of its own, closed to give the slot back.
        const request = post("/hold", spec, { agent: false, ...(signal ? { signal } : {}) });
        request.on("error", reject);
        request.on("response", (response) => {
          let text = "";
          response.setEncoding("utf8");
          const onData = (chunk: string) => {
            text += chunk;
            if (!text.includes("\n")) return;
            response.off("data", onData);
            const grant = JSON.parse(text.slice(0, text.indexOf("\n"))) as Grant;
            resolve({ ...grant, release: () => request.destroy() });
          };
          response.on("data", onData);
        });
      }),
    note: (note) =>
      new Promise((resolve, reject) => {
        const request = post("/note", note, { agent });
        request.on("error", reject);
        request.on("response", (response) => response.resume().on("end", () => resolve()));
      }),
  };
}

const shared = new Map<string, RunLimits>();

/** The limits this process asks: the coordinator's that run-specs started, else this process's own. */
export function runLimits(config: Config): RunLimits {
  const url = config.limits.coordinatorUrl ?? "";
  let limits = shared.get(url);
  if (!limits) shared.set(url, (limits = url ? coordinatorLimits(url) : localLimits(new RunArbiter())));
  return limits;
}
