import { AsyncLocalStorage } from "node:async_hooks";

// Each turn runs in its own context, so a refused connection is charged to the turn that made it,
// even when turns of other sessions run at the same time.
const turnScope = new AsyncLocalStorage<string[]>();

/** Runs `task` as one turn and returns, with its result, the connections the guard refused in it. */
export async function collectBlockedConnections<T>(task: () => Promise<T>): Promise<{ result: T; blocked: string[] }> {
  const blocked: string[] = [];
  const result = await turnScope.run(blocked, task);
  return { result, blocked };
}

/** Called by the network guard for every connection it refuses. */
export function noteBlockedConnection(target: string): void {
  turnScope.getStore()?.push(target);
}
