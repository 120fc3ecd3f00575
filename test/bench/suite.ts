// The whole suite a user runs before pushing: `npm test`, from command to exit, in this tree and in
// another commit's, installed alike, the runs alternating (ref, current, then current, ref, …) so
// that a slow stretch of this machine lands on both. About half an hour, so a whole bench run leaves
// it out: `npm run bench -- --only=suite --suite-ref=<commit>`. A run that fails stops it.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { cloneCommit, linkNodeModules } from "./commit-tree.ts";
import { timeCommand, type Options } from "./startup.ts";

export const SUITE_COMMAND = ["npm", "test"] as const;
const INSTALL_COMMAND = ["npm", "ci"] as const;

export interface SuiteOptions extends Pick<Options, "root" | "env" | "onCleanup"> {
  /** A scratch folder, outside this tree and removed by the caller, for the other commit's tree. */
  dir: string;
  /** The other commit, e.g. HEAD~1. */
  ref: string;
  /** Pairs of runs: the first ref then current, the next current then ref, and so on. */
  rounds: number;
  log(text: string): void;
  /** What is timed in each tree; a stand-in lets a spec time the mechanics without the suite. */
  command?: readonly string[];
  /** What installs a folder whose lockfile differs from this tree's. */
  install?: readonly string[];
}

export interface SuiteRun {
  tree: "ref" | "current";
  millis: number;
}

export interface SuiteResult {
  ref: string;
  commit: string;
  command: string;
  /** How the other tree got each node_modules this one has: linked to this one's (same lockfile) or installed. */
  installs: { folder: string; how: string }[];
  /** Every run, in the order they ran. */
  runs: SuiteRun[];
  /** The medians: this tree's, the other commit's, and this tree's over the other's. */
  millis: number;
  refMillis: number;
  ratio: number;
}

/** A thrown error that carries the exit code of the command that failed, for the bench to exit with. */
export class SuiteRunFailed extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

export async function measureSuite(options: SuiteOptions): Promise<SuiteResult> {
  const { root, dir, ref, rounds, env, onCleanup, log } = options;
  const command = options.command ?? SUITE_COMMAND;
  const into = join(dir, "suite-ref");
  const forget = onCleanup(() => rmSync(into, { recursive: true, force: true }));
  try {
    const other = cloneCommit(root, ref, into);
    if ("missing" in other)
      throw new Error(`bench: suite: ${other.missing}; --suite-ref names the commit to compare with.`);
    const trees = {
      ref: { path: into, name: `the ${ref} (${other.commit}) tree` },
      current: { path: root, name: "this tree" },
    };
    const installs = await installAlike(root, into, options);
    for (const { folder, how } of installs) log(`suite: ${folder}/node_modules of ${trees.ref.name}: ${how}`);
    const runs: SuiteRun[] = [];
    for (let round = 0; round < rounds; round++) {
      for (const tree of round % 2 === 0 ? (["ref", "current"] as const) : (["current", "ref"] as const)) {
        const run = await timeCommand(command, trees[tree].path, env, onCleanup);
        if (run.code !== 0)
          throw new SuiteRunFailed(
            `bench: ${command.join(" ")} exited ${run.code ?? "on a signal"} in ${trees[tree].name}:\n${lastLines(run.output)}`,
            run.code ?? 1,
          );
        runs.push({ tree, millis: run.millis });
        log(`suite: run ${runs.length} of ${rounds * 2}, ${trees[tree].name}: ${Math.round(run.millis)} ms`);
      }
    }
    const millis = median(runs.filter((run) => run.tree === "current"));
    const refMillis = median(runs.filter((run) => run.tree === "ref"));
    const ratio = millis / refMillis;
    return { ref, commit: other.commit, command: command.join(" "), installs, runs, millis, refMillis, ratio };
  } finally {
    rmSync(into, { recursive: true, force: true });
    forget();
  }
}

/**
 * Each folder where this tree has a node_modules beside a tracked lockfile gets one in `tree` the same
 * way: a link to this tree's when the lockfiles are the same, else its own install from its lockfile.
 */
async function installAlike(
  root: string,
  tree: string,
  { env, onCleanup, install = INSTALL_COMMAND }: SuiteOptions,
): Promise<{ folder: string; how: string }[]> {
  const lockfiles = execFileSync("git", ["ls-files", "-z", "--", "package-lock.json", "**/package-lock.json"], {
    cwd: root,
    encoding: "utf8",
  })
    .split("\0")
    .filter((file) => file && existsSync(join(root, dirname(file), "node_modules")));
  const installs: { folder: string; how: string }[] = [];
  for (const lockfile of lockfiles) {
    const folder = dirname(lockfile);
    const theirs = join(tree, lockfile);
    if (!existsSync(theirs)) {
      installs.push({ folder, how: "none: the commit has no such lockfile" });
    } else if (readFileSync(theirs, "utf8") === readFileSync(join(root, lockfile), "utf8")) {
      linkNodeModules(root, tree, folder);
      installs.push({ folder, how: "linked to this tree's (the lockfiles are the same)" });
    } else {
      const run = await timeCommand(install, join(tree, folder), env, onCleanup);
      if (run.code !== 0)
        throw new SuiteRunFailed(
          `bench: ${install.join(" ")} in ${folder} exited ${run.code}:\n${lastLines(run.output)}`,
          run.code ?? 1,
        );
      installs.push({ folder, how: `${install.join(" ")} (the lockfiles differ)` });
    }
  }
  return installs;
}

const lastLines = (output: string) => output.split("\n").slice(-40).join("\n");

function median(runs: readonly SuiteRun[]): number {
  const sorted = runs.map((run) => run.millis).sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
