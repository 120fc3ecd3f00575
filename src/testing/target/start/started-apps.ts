import { join, resolve } from "node:path";
import type { TargetEntry } from "../target-config.ts";
import { stopGroupsNow } from "./process-group.ts";
import { startApp, type StartedApp } from "./start-app.ts";
import type { StartEntry } from "./start-entry.ts";

/** A target's entry that says how its app is started. */
export type StartableEntry = TargetEntry & { start: StartEntry };

/** What serves a started app's model: the variables that lead the app to it, and how it is closed after the app. */
export interface AppSeam {
  env: Record<string, string>;
  close(): Promise<void>;
}

/** Makes the seam of target `name`'s app before it is spawned; undefined: the app calls its own model. */
export type SeamOf<Seam extends AppSeam = AppSeam> = (name: string, entry: StartableEntry) => Promise<Seam | undefined>;

export interface StartedAppsOptions<Seam extends AppSeam = AppSeam> {
  /** flowcheck's own environment, which each app's is made from. */
  env: Readonly<Record<string, string | undefined>>;
  /** Where each app's log `<target>.log` goes; relative to the working directory. Default `test/.tmp`. */
  logDir?: string;
  /** Told in each log's name, e.g. a worker's own: `<target>-<tag>.log`. */
  logTag?: string;
  seamOf?: SeamOf<Seam>;
}

interface Running<Seam extends AppSeam> {
  app: Promise<StartedApp>;
  seam: Promise<Seam | undefined>;
}

const STOPPING_SIGNALS = ["SIGINT", "SIGTERM"] as const;

/**
 * The apps a run starts for its targets: each once, on first use, kept until `closeAll`. While any
 * runs, SIGINT and SIGTERM stop every app's process group before this process ends as the signal
 * would end it, and an exit kills what is left.
 */
export class StartedApps<Seam extends AppSeam = AppSeam> {
  readonly #options: StartedAppsOptions<Seam>;
  readonly #running = new Map<string, Running<Seam>>();
  /** The process groups started and not yet stopped, for a signal or an exit to stop. */
  readonly #groups = new Set<number>();
  readonly #onSignal = (signal: NodeJS.Signals) => this.#stopOn(signal);
  readonly #onExit = () => stopGroupsNow([...this.#groups]);
  #watching = false;

  constructor(options: StartedAppsOptions<Seam>) {
    this.#options = options;
  }

  /** Target `name`'s app, started by the first call and the same for every later one. */
  app(name: string, entry: StartableEntry): Promise<StartedApp> {
    const running = this.#running.get(name);
    if (running) return running.app;
    this.#watch();
    const seam: Promise<Seam | undefined> = this.#options.seamOf
      ? this.#options.seamOf(name, entry)
      : Promise.resolve(undefined);
    const app = seam.then((made) => this.#start(name, entry, made));
    // Whoever asks sees a failure; a rejection nobody asked about yet must not end the process.
    app.catch(() => undefined);
    seam.catch(() => undefined);
    this.#running.set(name, { app, seam });
    return app;
  }

  /** The seam target `name`'s app was started with (undefined: it calls its own model), once `app` was asked. */
  async seam(name: string): Promise<Seam | undefined> {
    return await this.#running.get(name)?.seam;
  }

  /** Stops every app (its whole process group), then its seam; afterwards an app is started anew when asked. */
  async closeAll(): Promise<void> {
    const running = [...this.#running.values()];
    this.#running.clear();
    await Promise.all(running.map((each) => this.#close(each)));
    if (this.#running.size === 0) this.#unwatch();
  }

  async #start(name: string, entry: StartableEntry, seam: Seam | undefined): Promise<StartedApp> {
    const logDir = resolve(this.#options.logDir ?? "test/.tmp");
    const logFile = join(logDir, `${name}${this.#options.logTag ? `-${this.#options.logTag}` : ""}.log`);
    let pid: number | undefined;
    try {
      const app = await startApp(name, entry, {
        env: this.#options.env,
        seamEnv: seam?.env,
        logFile,
        spawned: (leader) => this.#groups.add((pid = leader)),
      });
      return {
        ...app,
        stop: async () => {
          await app.stop();
          if (app.pid !== undefined) this.#groups.delete(app.pid);
        },
      };
    } catch (error) {
      if (pid !== undefined) this.#groups.delete(pid);
      await seam?.close();
      throw error;
    }
  }

  /** The app stopped first, its seam after: the app may still be calling its model while it stops. */
  async #close({ app, seam }: Running<Seam>): Promise<void> {
    const started = await app.catch(() => undefined);
    await started?.stop();
    // A failed start has closed its seam already.
    if (started) await (await seam)?.close();
  }

  #watch(): void {
    if (this.#watching) return;
    this.#watching = true;
    for (const signal of STOPPING_SIGNALS) process.on(signal, this.#onSignal);
    process.on("exit", this.#onExit);
  }

  #unwatch(): void {
    if (!this.#watching) return;
    this.#watching = false;
    for (const signal of STOPPING_SIGNALS) process.off(signal, this.#onSignal);
    process.off("exit", this.#onExit);
  }

  /**
   * Stops every app's group, one still starting too, then lets `signal` end this process as it
   * would have without this handler. Synchronously: another handler of the signal (node:test's)
   * may end the process as soon as this one returns. A seam lives in this process and ends with it.
   */
  #stopOn(signal: NodeJS.Signals): void {
    this.#unwatch();
    stopGroupsNow([...this.#groups]);
    this.#groups.clear();
    this.#running.clear();
    process.kill(process.pid, signal);
  }
}
