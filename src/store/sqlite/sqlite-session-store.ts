import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type Database from "better-sqlite3";
import { FlowcheckError } from "../../errors.ts";
import { requireStoreDriver } from "../store-driver.ts";
import type { KeptAnswer, TurnWrite } from "../../engine/session-document.ts";
import { SessionStoreBase } from "../session-store-base.ts";
import type { StoredSession } from "../stored-session.ts";
import { WalCheckpointer } from "./wal-checkpointer.ts";

// What grows with the conversation (messages, the execution log) is appended as one row per turn,
// so a turn rewrites only the small head and its cost does not grow with the conversation's length.
// One row rather than a row per entry: a turn's write is then two b-tree inserts whatever it did.
// A keyed turn's answer is a row of its own, keyed by the scope and key a retry looks it up by,
// rather than a part of the head that every turn would rewrite.
const SCHEMA = `
CREATE TABLE IF NOT EXISTS sessions (
  id TEXT PRIMARY KEY,
  turns INTEGER NOT NULL,
  head TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS session_turns (
  session_id TEXT NOT NULL,
  turn INTEGER NOT NULL,
  memory TEXT NOT NULL,
  execution TEXT NOT NULL,
  PRIMARY KEY (session_id, turn)
);
CREATE TABLE IF NOT EXISTS turn_answers (
  scope TEXT NOT NULL,
  key TEXT NOT NULL,
  session_id TEXT NOT NULL,
  request TEXT NOT NULL,
  answer TEXT NOT NULL,
  PRIMARY KEY (scope, key)
);
`;

// A store that has written this many turns gets a checkpointer thread; one that writes a handful
// (a test, a short scenario) never pays for starting it.
const CHECKPOINTER_AFTER_WRITES = 200;
const CHECKPOINT_INTERVAL_MS = 50;
// SQLite's own threshold, in pages. With the thread, the serving connection copies the log only
// past the larger one: under steady load a checkpoint running beside the writes never finds the log
// quiet enough to start it over, so the serving connection does that now and then, copying only
// the little the thread has not.
const SERVING_CHECKPOINT_PAGES = 1000;
const FALLBACK_CHECKPOINT_PAGES = 10_000;

/** The settings of a file that servers and readers share, set before its tables are touched. */
export const SHARED_SETTINGS = [
  "journal_mode = WAL",
  // WAL with NORMAL survives a killed process; only a power loss can drop the last commits.
  "synchronous = NORMAL",
  // Before the layout: two servers opening one new file at once take turns instead of failing.
  "busy_timeout = 5000",
] as const;

/**
 * The settings of a scratch file, which one connection opens and the run deletes: the lock is
 * taken once and kept (no lock calls and no shared memory per statement), and nothing is flushed
 * to disk (a killed process still loses nothing, since the log is written before each commit
 * returns; a power loss would only lose a file that is deleted anyway). The lock mode goes first:
 * a connection that enters WAL already exclusive keeps the log's index in its own memory rather
 * than in a shared file. Measured here: a checked BasicFlow turn costs about a tenth less than with
 * the shared settings.
 */
export const SCRATCH_SETTINGS = ["locking_mode = EXCLUSIVE", "journal_mode = WAL", "synchronous = OFF"] as const;

export type SqliteStoreOptions = ({ readonly?: boolean; scratch?: never } | { scratch?: boolean; readonly?: never }) & {
  /** How long a statement waits for another connection's lock before the store fails with `store_unavailable`. Default 5000. */
  busyTimeoutMs?: number;
};

/**
 * The table layout this code writes, kept in `PRAGMA user_version`; 0 is a new file or layout 1.
 * Layout 3 adds `turn_answers`, which SCHEMA creates in a file of layout 2.
 */
const LAYOUT = 3;

// Layout 1 kept a row per memory entry and per execution entry; each turn's entries become its row.
const FROM_LAYOUT_1 = `
INSERT INTO session_turns (session_id, turn, memory, execution)
SELECT m.session_id, m.turn, m.memory, coalesce(e.execution, '[]')
FROM (
  SELECT session_id, turn, json_group_array(json_object('namespace', namespace, 'entry', json(entry)) ORDER BY idx) AS memory
  FROM session_messages GROUP BY session_id, turn
) AS m
LEFT JOIN (
  SELECT session_id, json_extract(entry, '$.turn') AS turn, json_group_array(json(entry) ORDER BY seq) AS execution
  FROM session_execution GROUP BY session_id, json_extract(entry, '$.turn')
) AS e ON e.session_id = m.session_id AND e.turn = m.turn;
DROP TABLE session_messages;
DROP TABLE session_execution;
`;

let driver: typeof Database | undefined;

/** better-sqlite3, loaded by the first store that opens a file: importing flowcheck never needs it. */
function sqlite(): typeof Database {
  driver ??= requireStoreDriver<typeof Database>("better-sqlite3");
  return driver;
}

/** Parsed JSON, or the text itself when it does not parse: the migration then names the problem. */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function hasTable(db: Database.Database, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}

/**
 * Creates the tables, or brings a file of an earlier layout up to this one, in one transaction
 * that holds the write lock from its start, so that another process doing the same waits and
 * then finds nothing left to do.
 */
function prepareLayout(db: Database.Database): void {
  db.transaction(() => {
    const layout = db.pragma("user_version", { simple: true }) as number;
    if (layout > LAYOUT) {
      throw new Error(
        `the file has table layout ${layout}, newer than this version's ${LAYOUT}; open it with the flowcheck that wrote it`,
      );
    }
    if (layout === LAYOUT) return;
    db.exec(SCHEMA);
    if (hasTable(db, "session_messages")) db.exec(FROM_LAYOUT_1);
    db.pragma(`user_version = ${LAYOUT}`);
  }).immediate();
}

/** The connection, with the file's settings and its table layout ready; `store_unavailable` when it cannot be. */
function openDatabase(path: string, options: SqliteStoreOptions): Database.Database {
  const Driver = sqlite();
  try {
    let db: Database.Database;
    if (options.readonly) {
      db = new Driver(path, { readonly: true, fileMustExist: true });
      const layout = db.pragma("user_version", { simple: true });
      if (layout !== LAYOUT) {
        throw new Error(
          `the file has table layout ${String(layout)}, not ${LAYOUT}; let the server that writes it open it first`,
        );
      }
    } else {
      if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
      db = new Driver(path);
      for (const setting of options.scratch ? SCRATCH_SETTINGS : SHARED_SETTINGS) db.pragma(setting);
      prepareLayout(db);
    }
    db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
    return db;
  } catch (error) {
    throw new FlowcheckError(
      "store_unavailable",
      `The SQLite session store at ${path} could not be opened: ${(error as Error).message}. ` +
        "Check that SQLITE_PATH names a writable file in a writable folder.",
      { cause: error },
    );
  }
}

/** A session's head and every turn's entries, in one read transaction: one snapshot, never half of another process's turn. */
function readTransaction(
  db: Database.Database,
  selectHead: Database.Statement<[string], { head: string }>,
): (id: string) => StoredSession | undefined {
  const selectTurns = db.prepare<[string], { turn: number; memory: string; execution: string }>(
    "SELECT turn, memory, execution FROM session_turns WHERE session_id = ? ORDER BY turn",
  );
  return db.transaction((id: string) => {
    const row = selectHead.get(id);
    if (!row) return undefined;
    const stored: StoredSession = { head: parsed(row.head), memory: [], execution: [] };
    for (const turn of selectTurns.iterate(id)) {
      const memory = parsed(turn.memory);
      const execution = parsed(turn.execution);
      if (!Array.isArray(memory) || !Array.isArray(execution)) {
        stored.damage = `the entries of its turn ${turn.turn} are not JSON arrays`;
        continue;
      }
      for (const append of memory) stored.memory.push(append as StoredSession["memory"][number]);
      for (const entry of execution) stored.execution.push(entry);
    }
    return stored;
  });
}

/** Thrown inside a write transaction to undo it: the turn's key was kept already. */
class KeyTaken extends Error {}

/**
 * A turn's write: the head, matched on the turn count it was computed from, the turn's row and its
 * kept answer; false when another writer won, or kept an answer under the same scope and key.
 */
function writeTransaction(db: Database.Database): (write: TurnWrite, creating: boolean) => boolean {
  const insertSession = db.prepare("INSERT OR IGNORE INTO sessions (id, turns, head) VALUES (?, ?, ?)");
  const updateSession = db.prepare("UPDATE sessions SET turns = ?, head = ? WHERE id = ? AND turns = ?");
  const insertTurn = db.prepare("INSERT INTO session_turns (session_id, turn, memory, execution) VALUES (?, ?, ?, ?)");
  const insertAnswer = db.prepare(
    "INSERT OR IGNORE INTO turn_answers (scope, key, session_id, request, answer) VALUES (?, ?, ?, ?, ?)",
  );
  const transaction = db.transaction((write: TurnWrite, creating: boolean) => {
    const { head, answer } = write;
    const written = creating
      ? insertSession.run(head.id, head.turns, JSON.stringify(head)).changes
      : updateSession.run(head.turns, JSON.stringify(head), head.id, write.baseTurns).changes;
    if (written !== 1) return false;
    insertTurn.run(head.id, head.turns, JSON.stringify(write.memory), JSON.stringify(write.execution));
    if (
      answer &&
      insertAnswer.run(answer.scope, answer.key, head.id, answer.request, JSON.stringify(answer.answer)).changes !== 1
    )
      throw new KeyTaken();
    return true;
  });
  return (write, creating) => {
    try {
      return transaction(write, creating);
    } catch (error) {
      if (error instanceof KeyTaken) return false;
      throw error;
    }
  };
}

/** Sessions in one SQLite file (WAL), one transaction per turn. */
export class SqliteSessionStore extends SessionStoreBase {
  readonly description: string;
  readonly path: string;
  readonly #db: Database.Database;
  readonly #selectHead: Database.Statement<[string], { head: string }>;
  readonly #dataVersion: Database.Statement<[], number>;
  readonly #writeMark: Database.Statement<[], string>;
  readonly #write: (write: TurnWrite, creating: boolean) => boolean;
  readonly #read: (id: string) => StoredSession | undefined;
  readonly #selectAnswer: Database.Statement<[string, string], { request: string; answer: string }>;
  #writesBeforeCheckpointer: number;
  #checkpointer: WalCheckpointer | undefined;

  /**
   * Opens (and creates, with its folder) the file at `path`; `:memory:` for a throwaway store.
   * `readonly` opens an existing file for reading only, e.g. another process's store under test.
   * `scratch` is for a file that this connection alone opens and nobody keeps (a test run's): see
   * SCRATCH_SETTINGS.
   */
  constructor(path: string, options: SqliteStoreOptions = {}) {
    super();
    this.path = path === ":memory:" ? path : resolve(path);
    this.description = `SQLite ${this.path}${options.readonly ? " (read-only)" : ""}`;
    // A scratch file's log is copied on the serving connection: no other connection may open it.
    const background = !(options.readonly || options.scratch || this.path === ":memory:");
    this.#writesBeforeCheckpointer = background ? CHECKPOINTER_AFTER_WRITES : Infinity;
    this.#db = openDatabase(this.path, options);
    const db = this.#db;
    this.#selectHead = db.prepare("SELECT head FROM sessions WHERE id = ?");
    this.#dataVersion = db.prepare<[], number>("PRAGMA data_version").pluck();
    // Rows this connection has changed, and the data version that moves on another connection's commit.
    this.#writeMark = db
      .prepare<[], string>("SELECT total_changes() || ':' || data_version FROM pragma_data_version")
      .pluck();
    this.#read = readTransaction(db, this.#selectHead);
    this.#write = writeTransaction(db);
    this.#selectAnswer = db.prepare("SELECT request, answer FROM turn_answers WHERE scope = ? AND key = ?");
  }

  /** SQLite's data version: it changes when another connection, in this process or another, commits. */
  changeMark(): number {
    return this.#dataVersion.get()!;
  }

  /**
   * A value that changes whenever anything is committed to the file, by this connection or any
   * other: equal marks mean nothing was written in between. (A rolled-back write may change it too,
   * which only costs its reader a look.)
   */
  writeMark(): string {
    return this.#writeMark.get()!;
  }

  // The hooks answer synchronously (better-sqlite3 is synchronous): no promise per layer.
  protected read(id: string): StoredSession | undefined {
    return this.#read(id);
  }

  protected readHead(id: string): unknown {
    const row = this.#selectHead.get(id);
    return row ? parsed(row.head) : undefined;
  }

  protected readAnswer(scope: string, key: string): KeptAnswer | undefined {
    const row = this.#selectAnswer.get(scope, key);
    return row && { scope, key, request: row.request, answer: parsed(row.answer) };
  }

  protected insert(write: TurnWrite): boolean {
    this.#countWrite();
    return this.#write(write, true);
  }

  protected apply(write: TurnWrite): boolean {
    this.#countWrite();
    return this.#write(write, false);
  }

  // Every SQLite failure (a lock held past busy_timeout, a read-only or full disk, an I/O error)
  // leaves the transaction rolled back: nothing of the turn is in the file.
  protected override failureOf(error: unknown): unknown {
    if (!(error instanceof sqlite().SqliteError)) return error;
    return new FlowcheckError(
      "store_unavailable",
      `The session store (${this.description}) failed: ${error.message} (${error.code}). ` +
        `Nothing of the turn was stored; send the request again once the store is back.`,
      { cause: error },
    );
  }

  /** Whether a thread copies the write-ahead log into the file, off the connection that serves turns. */
  get checkpointsInBackground(): boolean {
    return this.#checkpointer !== undefined;
  }

  #countWrite(): void {
    if (--this.#writesBeforeCheckpointer > 0) return;
    this.#writesBeforeCheckpointer = Infinity;
    this.#checkpointer = new WalCheckpointer(this.path, CHECKPOINT_INTERVAL_MS, () => {
      if (this.#db.open) this.#db.pragma(`wal_autocheckpoint = ${SERVING_CHECKPOINT_PAGES}`);
    });
    this.#db.pragma(`wal_autocheckpoint = ${FALLBACK_CHECKPOINT_PAGES}`);
  }

  async close(): Promise<void> {
    const checkpointer = this.#checkpointer;
    this.#checkpointer = undefined;
    // The checkpointer's connection goes first, so that this one, the last, folds the log into the file.
    await checkpointer?.stop();
    if (this.#db.open) this.#db.close();
  }
}
