import { Worker } from "node:worker_threads";
import { storeDriverPath } from "../store-driver.ts";

// The worker is plain CommonJS, evaluated as a string: it needs no TypeScript loader, whatever ran
// this process. It opens its own connection and copies the WAL into the database file, PASSIVE so
// that it never waits for, or blocks, the connection that serves turns.
const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
const dataVersion = db.prepare("PRAGMA data_version").pluck();
let copied;
const checkpoint = () => {
  try {
    // Changes only when another connection committed: an idle store costs one cheap read a round.
    const version = dataVersion.get();
    if (version === copied) return;
    db.pragma("wal_checkpoint(PASSIVE)");
    copied = version;
  } catch {
    // A busy or vanished file: the next round tries again, or the store stops this worker.
  }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.once("message", () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/**
 * Copies a SQLite file's write-ahead log into the database on another thread, every
 * `intervalMs`. Without it the connection that commits a turn also copies the log when it grows
 * past a threshold: a few milliseconds now and then, which lands on whichever request commits.
 */
export class WalCheckpointer {
  readonly #worker: Worker;
  readonly #exited: Promise<void>;

  /** `onFailure` runs if the worker cannot run: the serving connection must then checkpoint again. */
  constructor(path: string, intervalMs: number, onFailure: () => void) {
    this.#worker = new Worker(WORKER, {
      eval: true,
      workerData: { driver: storeDriverPath("better-sqlite3"), path, intervalMs },
    });
    // It must never keep the process alive, nor take it down.
    this.#worker.unref();
    this.#worker.on("error", onFailure);
    this.#exited = new Promise((resolve) => this.#worker.once("exit", () => resolve()));
  }

  /** Closes the worker's connection and waits for the thread to end. */
  async stop(): Promise<void> {
    // Held by the process again until it has gone, or nothing would be left to wait for.
    this.#worker.ref();
    this.#worker.postMessage("stop");
    await this.#exited;
  }
}
