// The start-up a user waits for: `npm run test:flows -- scenarios/basic-flow.scenario.json` (the
// demo's scenario, as a user runs it), from command to exit, npm's own start included. The same
// command on an earlier commit is timed in the same run, in turn with this tree's, so that a slow
// minute on this machine lands on both. Like any run of that command, it leaves
// test/.tmp/flow-coverage.json behind.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { cloneCommit, linkNodeModules } from "./commit-tree.ts";

export const STARTUP_COMMAND = ["npm", "run", "test:flows", "--", "scenarios/basic-flow.scenario.json"] as const;
/** Counted runs of each tree, after one that is not: the first run of a tree fills tsx's cache for it. */
const RUNS = 5;

export interface Spread {
  min: number;
  median: number;
  max: number;
}

export interface StartupResult {
  millis: Spread;
  /** The earlier commit's figures, or why there are none (no such commit, or its command failed). */
  baseline: { ref: string; commit: string; millis: Spread } | { ref: string; missing: string };
}

export interface Options {
  /** The tree measured: the repository's root. */
  root: string;
  /** A scratch folder, removed by the caller, for the earlier commit's tree. */
  dir: string;
  /** The earlier commit, e.g. HEAD~1. */
  ref: string;
  env: NodeJS.ProcessEnv;
  /** Registers what must be undone if the bench is stopped halfway. */
  onCleanup(undo: () => void): () => void;
}

export async function measureStartup({ root, dir, ref, env, onCleanup }: Options): Promise<StartupResult> {
  const earlier = checkOut(root, ref, join(dir, "startup-baseline"));
  let earlierTree = "tree" in earlier ? earlier.tree : undefined;
  let missing = "missing" in earlier ? earlier.missing : undefined;
  const times: number[] = [];
  const earlierTimes: number[] = [];
  for (let round = 0; round < RUNS + 1; round++) {
    // The order flips every round, so neither tree always runs right after the other.
    for (const tree of round % 2 === 0 ? [root, earlierTree] : [earlierTree, root]) {
      if (tree === undefined) continue;
      const run = await timeCommand(STARTUP_COMMAND, tree, env, onCleanup);
      if (run.code !== 0 && tree === root)
        throw new Error(
          `bench: ${STARTUP_COMMAND.join(" ")} exited ${run.code}:\n${run.output.split("\n").slice(-40).join("\n")}`,
        );
      if (run.code !== 0) {
        missing = `its ${STARTUP_COMMAND.join(" ")} exited ${run.code}`;
        earlierTree = undefined;
      } else if (round > 0) (tree === root ? times : earlierTimes).push(run.millis);
    }
  }
  return {
    millis: spread(times),
    baseline:
      "commit" in earlier && missing === undefined
        ? { ref, commit: earlier.commit, millis: spread(earlierTimes) }
        : { ref, missing: missing ?? "" },
  };
}

/** `ref`'s files in `into`, with this tree's node_modules; or why not, when there is no such commit. */
function checkOut(root: string, ref: string, into: string): { tree: string; commit: string } | { missing: string } {
  const earlier = cloneCommit(root, ref, into);
  if ("tree" in earlier) linkNodeModules(root, earlier.tree);
  return earlier;
}

/** `command`'s wall time in `cwd`, as a whole process group, with its exit code and output. */
export function timeCommand(
  command: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  onCleanup: Options["onCleanup"],
): Promise<{ millis: number; code: number | null; output: string }> {
  return new Promise((done, fail) => {
    const started = process.hrtime.bigint();
    // A group of its own, so that a bench stopped halfway takes npm's children down with it.
    const child = spawn(command[0]!, command.slice(1), { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    const forget = onCleanup(() => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    });
    child.on("error", fail);
    child.on("close", (code) => {
      forget();
      done({ millis: Number(process.hrtime.bigint() - started) / 1e6, code, output });
    });
  });
}

export function spread(millis: number[]): Spread {
  const sorted = [...millis].sort((a, b) => a - b);
  return { min: sorted[0]!, median: sorted[Math.floor(sorted.length / 2)]!, max: sorted[sorted.length - 1]! };
}
