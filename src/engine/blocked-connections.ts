import { AsyncLocalStorage } from "node:async_hooks";

// Each turn runs in its own context, so a refused connection is charged to the turn that made it,
// even when turns of other sessions run at the same time.
const turnScope = new AsyncLocalStorage<string[]>();

/**
 * Runs `task` as one turn; every connection the guard refuses while it runs is pushed to `blocked`.
 * Returns the task's own promise: a turn pays for no promise of this module's.
 */
export function collectBlockedConnections<T>(blocked: string[], task: () => Promise<T>): Promise<T> {
  return turnScope.run(blocked, task);
}

/** Called by the network guard for every connection it refuses. */
export function noteBlockedConnection(target: string): void {
  turnScope.getStore()?.push(target);
}
