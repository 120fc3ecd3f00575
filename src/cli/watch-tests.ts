import { spawn, type ChildProcess } from "node:child_process";
import { statSync, watch, type FSWatcher } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import type { RunRequest } from "./run-arguments.ts";
import { describeWatched, ignoredChange, watchedPaths } from "./watched-paths.ts";

/** The one flowcheck entry each round starts, in src/ as in the package's build. */
const FLOWCHECK = resolve(import.meta.dirname, "flowcheck.mjs");

// An editor's save is several events (write, chmod, rename over): they settle into one round.
const SETTLE_MILLIS = 100;

// A round that outlives SIGTERM by this much (a spec's handler that never returns) is killed.
const KILL_GRACE_MILLIS = 2_000;

const PREFIX = "flowcheck test --watch:";

/**
 * `flowcheck test --watch`: `roundArgs` (the same command line without --watch) run as a
 * `flowcheck test` child process, again on every save of what `watchedPaths(request)` names.
 * Each round is a new process because the specs run in their runner's process, whose module cache
 * would keep the flows' code of the first round. A save while a round runs stops that round (its
 * process group, so nothing it started is left) and starts the next. Resolves to 0 once SIGINT
 * (Ctrl-C) or SIGTERM has stopped the round running and the watch.
 */
export function watchTests(request: RunRequest, roundArgs: readonly string[]): Promise<number> {
  const outputs = reportFilesOf(request);
  let watched = watchedPaths(request);
  let watchers: FSWatcher[] = [];
  let round: ChildProcess | undefined;
  let settling: NodeJS.Timeout | undefined;
  let changed: string | undefined;
  let again = false;
  let stopped: ((code: number) => void) | undefined;

  const onChange = (path: string) => {
    if (outputs.has(path)) return;
    changed ??= path;
    clearTimeout(settling);
    settling = setTimeout(() => {
      settling = undefined;
      if (round) {
        again = true;
        stopRound(round);
      } else startRound();
    }, SETTLE_MILLIS);
  };

  const startRound = () => {
    if (changed) console.log(`${PREFIX} ${relative(".", changed)} changed, running again`);
    changed = undefined;
    round = roundProcess(roundArgs);
    round.on("exit", (code, signal) => {
      round = undefined;
      if (stopped) return stopped(0);
      if (again) {
        again = false;
        return startRound();
      }
      // A round may have added a scenario file or named another flow: what is watched follows.
      watched = watchedPaths(request);
      watchers = rewatch(watchers, watched.roots, onChange);
      const verdict = code === 0 ? "passed" : `failed (${signal ?? `exit ${code}`})`;
      console.log(`${PREFIX} ${verdict}; ${describeWatched(watched)}`);
    });
  };

  return new Promise((done) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      clearTimeout(settling);
      for (const watcher of watchers) watcher.close();
      stopped = done;
      if (round) stopRound(round);
      else done(0);
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
    watchers = rewatch(watchers, watched.roots, onChange);
    console.log(`${PREFIX} ${describeWatched(watched)}`);
    startRound();
  });
}

/** The run's own reports named on the command line, which would start a round each time it writes them. */
function reportFilesOf(request: RunRequest): Set<string> {
  const files = [
    ...request.runReporters.map((reporter) => ("destination" in reporter ? reporter.destination : undefined)),
    ...request.reporters.map((reporter) => reporter.destination),
  ];
  return new Set(
    files
      .filter((path): path is string => path !== undefined && path !== "stdout" && path !== "stderr")
      .map((path) => resolve(path)),
  );
}

/** `flowcheck test <roundArgs>` writing to this terminal, in its own process group, so that stopping it stops what it started too. */
function roundProcess(roundArgs: readonly string[]): ChildProcess {
  return spawn(process.execPath, [...process.execArgv, FLOWCHECK, "test", ...roundArgs], {
    stdio: "inherit",
    detached: true,
  });
}

/** SIGTERM to the round's process group, SIGKILL if it is still there after the grace. */
function stopRound(round: ChildProcess): void {
  // Without a pid it never started; -0 would be this process's own group.
  if (round.pid === undefined) return;
  const group = -round.pid;
  signalGroup(group, "SIGTERM");
  const kill = setTimeout(() => signalGroup(group, "SIGKILL"), KILL_GRACE_MILLIS);
  round.once("exit", () => clearTimeout(kill));
}

function signalGroup(group: number, signal: NodeJS.Signals): void {
  try {
    process.kill(group, signal);
  } catch {
    // The group has gone already.
  }
}

/**
 * Watchers of `roots` in place of `previous`, reporting each change's absolute path: a folder
 * recursively, a file through its folder, so that an editor's save by rename is seen too.
 */
function rewatch(
  previous: readonly FSWatcher[],
  roots: readonly string[],
  onChange: (path: string) => void,
): FSWatcher[] {
  for (const watcher of previous) watcher.close();
  const files = new Map<string, Set<string>>();
  const watchers: FSWatcher[] = [];
  for (const root of roots) {
    if (!statSync(root, { throwIfNoEntry: false })?.isDirectory()) {
      const names = files.get(dirname(root)) ?? new Set();
      files.set(dirname(root), names.add(basename(root)));
      continue;
    }
    const watcher = watch(root, { recursive: true }, (_, name) => {
      if (name === null || !ignoredChange(name)) onChange(name === null ? root : join(root, name));
    });
    // A watched folder that is removed ends its watcher: a round says what is missing, and what is watched follows.
    watchers.push(watcher.on("error", () => onChange(root)));
  }
  for (const [folder, names] of files) {
    const watcher = watch(folder, (_, name) => {
      if (name === null || names.has(name)) onChange(name === null ? folder : join(folder, name));
    });
    watchers.push(watcher.on("error", () => onChange(folder)));
  }
  return watchers;
}
