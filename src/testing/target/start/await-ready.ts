import type { ChildProcess } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";

const POLL_MILLIS = 100;
// One poll's longest wait: a server that accepts and never answers is asked again.
const ATTEMPT_MILLIS = 2_000;

/** How waiting for a started app ended. */
export type Readiness =
  | { state: "ready" }
  | { state: "exited"; code: number | null; signal: NodeJS.Signals | null }
  | { state: "unspawned"; reason: string }
  | { state: "late"; last: string };

/** What GET `url` got: a status below 500 is an answer; else what happened, for a message. */
export async function readyAnswer(url: string, timeoutMs = ATTEMPT_MILLIS): Promise<true | string> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: "manual" });
    await response.body?.cancel();
    return response.status < 500 ? true : `it answered ${response.status}`;
  } catch (error) {
    const cause = (error as Error & { cause?: { code?: string } }).cause;
    return cause?.code ? `${cause.code}` : (error as Error).message;
  }
}

/**
 * Polls `url` until it answers a status below 500 (ready), `child` exits first (exited) or could
 * not be spawned (unspawned), or `timeoutMs` pass (late, with what the last poll got).
 */
export async function awaitReady(url: string, child: ChildProcess, timeoutMs: number): Promise<Readiness> {
  const deadline = Date.now() + timeoutMs;
  let exit: Readiness | undefined;
  const exited = (code: number | null, signal: NodeJS.Signals | null) => (exit = { state: "exited", code, signal });
  const unspawned = (error: Error) => (exit = { state: "unspawned", reason: error.message });
  if (child.exitCode !== null || child.signalCode !== null) exited(child.exitCode, child.signalCode);
  child.once("exit", exited);
  child.once("error", unspawned);
  try {
    let last = "no poll finished";
    while (exit === undefined && Date.now() < deadline) {
      const answer = await readyAnswer(url, Math.max(1, Math.min(ATTEMPT_MILLIS, deadline - Date.now())));
      if (answer === true && exit === undefined) return { state: "ready" };
      if (answer !== true) last = answer;
      if (exit === undefined) await sleep(POLL_MILLIS);
    }
    return exit ?? { state: "late", last };
  } finally {
    child.off("exit", exited);
    child.off("error", unspawned);
  }
}
