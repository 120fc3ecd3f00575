import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, mkdirSync, openSync } from "node:fs";
import { dirname, relative } from "node:path";
import { FlowcheckError } from "../../../errors.ts";
import { appEnvironment } from "./app-environment.ts";
import { awaitReady, readyAnswer, type Readiness } from "./await-ready.ts";
import { freePort } from "./free-port.ts";
import { logTail } from "./log-tail.ts";
import { withPort } from "./port-placeholder.ts";
import { stopGroup } from "./process-group.ts";
import type { StartEntry } from "./start-entry.ts";

const DEFAULT_START_MILLIS = 60_000;
const TAIL_LINES = 20;

/** A target's app as the run uses it: where it answers, and how it is stopped. */
export interface StartedApp {
  /** The target's baseUrl, `{{port}}` filled. */
  readonly baseUrl: string;
  /** The port chosen for `{{port}}`. */
  readonly port: number;
  /** Its process group's leader; undefined for a server reused, which flowcheck did not start. */
  readonly pid: number | undefined;
  /** Stops its whole process group and waits for it; a reused server is left running. */
  stop(): Promise<void>;
}

/** What starting a target's app needs besides its entry. */
export interface StartAppOptions {
  /** flowcheck's own environment: the app's is made from it (`appEnvironment`), `CI` read from it. */
  env: Readonly<Record<string, string | undefined>>;
  /** The seam's variables, when flowcheck serves the app's model. */
  seamEnv?: Readonly<Record<string, string>> | undefined;
  /** The file the app's output is written to. */
  logFile: string;
  /** Told the process group's leader as soon as it runs, before it is ready: a Ctrl-C may come meanwhile. */
  spawned?: (pid: number) => void;
}

/**
 * Starts target `name`'s app as its `start` says: `{{port}}` a free loopback port, the command run
 * with a shell in its own process group, its output in `logFile` (written anew at each start, so
 * that the log and the lines a failure quotes are this start's alone), ready once `start.ready`
 * answers a status below 500. With `reuse` (not under CI), a server already answering there is
 * used and never stopped. A command that exits first or is not ready in time has its group stopped
 * and is `target_start_failed`, quoting the log's last lines.
 */
export async function startApp(
  name: string,
  entry: { baseUrl: string; start: StartEntry },
  options: StartAppOptions,
): Promise<StartedApp> {
  const { start } = entry;
  const port = await freePort();
  const ready = withPort(start.ready, port);
  const baseUrl = withPort(entry.baseUrl, port);
  if (start.reuse && !options.env["CI"] && (await readyAnswer(ready)) === true)
    return { baseUrl, port, pid: undefined, stop: async () => undefined };
  const startEnv = Object.fromEntries(
    Object.entries(start.env ?? {}).map(([key, text]) => [key, withPort(text, port)]),
  );
  const child = spawnLogged(start, appEnvironment(options.env, startEnv, options.seamEnv), options.logFile);
  if (child.pid !== undefined) options.spawned?.(child.pid);
  const readiness = await awaitReady(ready, child, start.timeoutMs ?? DEFAULT_START_MILLIS);
  if (readiness.state !== "ready") {
    await stopGroup(child);
    throw startFailed(name, start, ready, readiness, options.logFile);
  }
  return { baseUrl, port, pid: child.pid, stop: () => stopGroup(child) };
}

/** `start.command` spawned with a shell as the leader of its own process group, its output into `logFile`. */
function spawnLogged(start: StartEntry, env: Record<string, string>, logFile: string): ChildProcess {
  mkdirSync(dirname(logFile), { recursive: true });
  const log = openSync(logFile, "w");
  try {
    const child = spawn(start.command, {
      shell: true,
      detached: true,
      cwd: start.cwd,
      env,
      stdio: ["ignore", log, log],
    });
    // node:test ends its run once nothing else keeps this process alive: a running app must not.
    child.unref();
    return child;
  } finally {
    closeSync(log);
  }
}

function startFailed(
  name: string,
  start: StartEntry,
  ready: string,
  readiness: Exclude<Readiness, { state: "ready" }>,
  logFile: string,
): FlowcheckError {
  const happened =
    readiness.state === "exited"
      ? `exited (${readiness.signal ? `signal ${readiness.signal}` : `code ${readiness.code}`}) before ${ready} answered`
      : readiness.state === "unspawned"
        ? `could not be spawned (${readiness.reason})`
        : `was not ready after ${start.timeoutMs ?? DEFAULT_START_MILLIS} ms: ` +
          `GET ${ready} never answered a status below 500 (last: ${readiness.last})`;
  const shown = relative(process.cwd(), logFile) || logFile;
  const tail = logTail(logFile, TAIL_LINES);
  const quoted = tail.length
    ? `The last lines of ${shown}:\n${tail.map((line) => `  | ${line}`).join("\n")}`
    : `${shown} is empty.`;
  return new FlowcheckError(
    "target_start_failed",
    `Target ${name}: its app, started with \`${start.command}\` in ${start.cwd ?? process.cwd()}, ${happened}; ` +
      `its process group was stopped. ${quoted}\n` +
      `Run the command there yourself to see why, or fix the target's "start" in flowcheck.config.json.`,
  );
}
