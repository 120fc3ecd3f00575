import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import Database from "better-sqlite3";
import { FlowcheckError } from "../../errors.ts";
import type { TurnWrite } from "../../engine/session-document.ts";
import { SessionStoreBase } from "../session-store-base.ts";
import type { StoredSession } from "../stored-session.ts";

// What grows with the conversation (messages, the execution log) is appended as rows, so a turn
// rewrites only the small head and its cost does not grow with the conversation's length.
const SCHEMA = `
CREATE TABLE IF NOT EXISTS sessions (
  id TEXT PRIMARY KEY,
  turns INTEGER NOT NULL,
  head TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS session_messages (
  session_id TEXT NOT NULL,
  turn INTEGER NOT NULL,
  idx INTEGER NOT NULL,
  namespace TEXT NOT NULL,
  entry TEXT NOT NULL,
  PRIMARY KEY (session_id, turn, idx)
);
CREATE TABLE IF NOT EXISTS session_execution (
  session_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  entry TEXT NOT NULL,
  PRIMARY KEY (session_id, seq)
);
`;

/** Parsed JSON, or the text itself when it does not parse: the migration then names the problem. */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Sessions in one SQLite file (WAL), one transaction per turn. */
export class SqliteSessionStore extends SessionStoreBase {
  readonly description: string;
  readonly path: string;
  readonly #db: Database.Database;
  readonly #selectHead: Database.Statement<[string], { head: string }>;
  readonly #selectMessages: Database.Statement<[string], { namespace: string; entry: string }>;
  readonly #selectExecution: Database.Statement<[string], { entry: string }>;
  readonly #write: (write: TurnWrite, creating: boolean) => boolean;
  readonly #read: (id: string) => StoredSession | undefined;

  /**
   * Opens (and creates, with its folder) the file at `path`; `:memory:` for a throwaway store.
   * `readonly` opens an existing file for reading only, e.g. another process's store under test.
   */
  constructor(path: string, options: { readonly?: boolean } = {}) {
    super();
    this.path = path === ":memory:" ? path : resolve(path);
    this.description = `SQLite ${this.path}${options.readonly ? " (read-only)" : ""}`;
    try {
      if (options.readonly) {
        this.#db = new Database(this.path, { readonly: true, fileMustExist: true });
      } else {
        if (this.path !== ":memory:") mkdirSync(dirname(this.path), { recursive: true });
        this.#db = new Database(this.path);
        this.#db.pragma("journal_mode = WAL");
        // WAL with NORMAL survives a killed process; only a power loss can drop the last commits.
        this.#db.pragma("synchronous = NORMAL");
        this.#db.exec(SCHEMA);
      }
      this.#db.pragma("busy_timeout = 5000");
    } catch (error) {
      throw new FlowcheckError(
        "store_unavailable",
        `The SQLite session store at ${this.path} could not be opened: ${(error as Error).message}. ` +
          "Check that SQLITE_PATH names a writable file in a writable folder.",
        { cause: error },
      );
    }
    const db = this.#db;
    this.#selectHead = db.prepare("SELECT head FROM sessions WHERE id = ?");
    this.#selectMessages = db.prepare("SELECT namespace, entry FROM session_messages WHERE session_id = ? ORDER BY turn, idx");
    this.#selectExecution = db.prepare("SELECT entry FROM session_execution WHERE session_id = ? ORDER BY seq");
    const insertSession = db.prepare("INSERT OR IGNORE INTO sessions (id, turns, head) VALUES (?, ?, ?)");
    const updateSession = db.prepare("UPDATE sessions SET turns = ?, head = ? WHERE id = ? AND turns = ?");
    const insertMessage = db.prepare("INSERT INTO session_messages (session_id, turn, idx, namespace, entry) VALUES (?, ?, ?, ?, ?)");
    const insertExecution = db.prepare("INSERT INTO session_execution (session_id, seq, entry) VALUES (?, ?, ?)");

    // One read transaction: the three reads see one snapshot, never half of another process's turn.
    this.#read = db.transaction((id: string) => {
      const row = this.#selectHead.get(id);
      if (!row) return undefined;
      return {
        head: parsed(row.head),
        memory: this.#selectMessages.all(id).map((message) => ({ namespace: message.namespace, entry: parsed(message.entry) })),
        execution: this.#selectExecution.all(id).map((entry) => parsed(entry.entry)),
      };
    });
    this.#write = db.transaction((write: TurnWrite, creating: boolean) => {
      const { head } = write;
      const written = creating
        ? insertSession.run(head.id, head.turns, JSON.stringify(head)).changes
        : updateSession.run(head.turns, JSON.stringify(head), head.id, write.baseTurns).changes;
      if (written !== 1) return false;
      write.memory.forEach((append, index) => {
        insertMessage.run(head.id, head.turns, index, append.namespace, JSON.stringify(append.entry));
      });
      for (const entry of write.execution) insertExecution.run(head.id, entry.seq, JSON.stringify(entry));
      return true;
    });
  }

  protected async read(id: string): Promise<StoredSession | undefined> {
    return this.#read(id);
  }

  protected async insert(write: TurnWrite): Promise<boolean> {
    return this.#write(write, true);
  }

  protected async apply(write: TurnWrite): Promise<boolean> {
    return this.#write(write, false);
  }

  async close(): Promise<void> {
    if (this.#db.open) this.#db.close();
  }
}
