import type { SessionStore } from "../../src/engine/session-store.ts";

/** The variable that arms the hook in `serve-basic-flow.ts`: the number of the commit to exit after. */
export const EXIT_AFTER_COMMIT = "TEST_EXIT_AFTER_COMMIT";

/** The exit code the hook ends the process with, so a test tells it from a crash. */
export const EXIT_AFTER_COMMIT_CODE = 86;

/**
 * `store`, but the process exits right after its `commit`-th write (a session created or a turn
 * saved) is committed: before the engine gets the write's result back, so before any answer is
 * sent. What a server killed between its commit and its answer leaves behind.
 */
export function exitingAfterCommit(store: SessionStore, commit: number): SessionStore {
  let commits = 0;
  const committed = (): void => {
    commits += 1;
    if (commits === commit) process.exit(EXIT_AFTER_COMMIT_CODE);
  };
  return {
    description: store.description,
    fetchAll: (id) => store.fetchAll(id),
    fetchHead: (id) => store.fetchHead(id),
    fetchAnswer: (scope, key) => store.fetchAnswer(scope, key),
    ...(store.changeMark ? { changeMark: () => store.changeMark!() } : {}),
    create: (write) => store.create(write).then(committed),
    saveTurn: (write) => store.saveTurn(write).then(committed),
    close: () => store.close(),
  };
}
