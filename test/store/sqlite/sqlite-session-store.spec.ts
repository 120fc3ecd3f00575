import assert from "node:assert/strict";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test, type TestContext } from "node:test";
import Database from "better-sqlite3";
import { SESSION_DOCUMENT_VERSION } from "../../../src/engine/session-document.ts";
import { isFlowcheckError } from "../../../src/errors.ts";
import { migrateSession } from "../../../src/store/migrations/migrate-session.ts";
import { SqliteSessionStore } from "../../../src/store/sqlite/sqlite-session-store.ts";
import type { StoredSession } from "../../../src/store/stored-session.ts";
import { tempDir } from "../../support/temp-path.ts";
import { describeSessionStoreContract } from "../session-store-contract.ts";

describeSessionStoreContract("SQLite", async () => {
  const dir = await tempDir("sqlite-contract");
  const store = new SqliteSessionStore(join(dir.path, "sessions.sqlite"));
  return {
    store,
    dispose: async () => {
      await store.close();
      dir.remove();
    },
  };
});

describeSessionStoreContract("SQLite scratch", async () => {
  const dir = await tempDir("sqlite-scratch-contract");
  const store = new SqliteSessionStore(join(dir.path, "sessions.sqlite"), { scratch: true });
  return {
    store,
    dispose: async () => {
      await store.close();
      dir.remove();
    },
  };
});

/** A path for a SQLite file in a folder of its own, removed when the test ends. */
async function sessionsFile(t: TestContext, name: string): Promise<string> {
  const dir = await tempDir(name);
  t.after(() => dir.remove());
  return join(dir.path, "sessions.sqlite");
}

/** A BasicFlow session's head after `turns` turns, for the tests that write many turns. */
function headAt(id: string, turns: number) {
  return {
    id,
    version: 1,
    turns,
    flow: { name: "BasicFlow", currentStep: "NameStep" },
    runStatus: "running" as const,
    steps: { NameStep: { tries: turns } },
    children: [],
    createdAt: "2027-01-01T00:00:00.000Z",
    updatedAt: "2027-01-01T00:00:00.000Z",
  };
}
const SAID_HI = [{ namespace: "flow", entry: { role: "user" as const, content: "hi" } }];

test("a scratch store keeps its file to itself until it closes, then leaves it whole for the next store", async (t) => {
  const path = await sessionsFile(t, "sqlite-scratch");
  const id = "00000000-0000-4000-8000-00000000dddd";
  const store = new SqliteSessionStore(path, { scratch: true });
  try {
    await store.create({ head: headAt(id, 1), baseTurns: 0, memory: SAID_HI, execution: [] });
    // Past SQLite's own checkpoint threshold, with no thread to do it: the serving connection copies the log.
    for (let turn = 2; turn <= 400; turn++)
      await store.saveTurn({ head: headAt(id, turn), baseTurns: turn - 1, memory: SAID_HI, execution: [] });
    assert.equal(
      store.checkpointsInBackground,
      false,
      "no other connection may open the file, a checkpointer's included",
    );
    assert.equal(existsSync(`${path}-shm`), false, "the log's index lives in the connection's memory");
    const other = new Database(path, { timeout: 0 });
    try {
      assert.throws(() => other.prepare("SELECT count(*) FROM sessions").get(), { code: "SQLITE_BUSY" });
    } finally {
      other.close();
    }
    assert.equal((await store.fetchHead(id))?.turns, 400);
  } finally {
    await store.close();
  }
  const reopened = new SqliteSessionStore(path);
  try {
    assert.equal((await reopened.fetchAll(id))?.memory["flow"]?.length, 400);
  } finally {
    await reopened.close();
  }
});

test("a store's write mark moves with every commit, its own or another connection's, and with nothing else", async (t) => {
  const path = await sessionsFile(t, "sqlite-write-mark");
  const id = "00000000-0000-4000-8000-00000000eeee";
  const store = new SqliteSessionStore(path);
  const other = new SqliteSessionStore(path);
  const reader = new SqliteSessionStore(path, { readonly: true });
  try {
    const marks = () => [store.writeMark(), reader.writeMark()];
    const start = marks();
    await store.fetchAll(id);
    await reader.fetchHead(id);
    assert.deepEqual(marks(), start, "reads write nothing");
    await store.create({ head: headAt(id, 1), baseTurns: 0, memory: SAID_HI, execution: [] });
    const created = marks();
    assert.notEqual(created[0], start[0], "the store's own commit");
    assert.notEqual(created[1], start[1], "another connection's commit, seen by a reader");
    await assert.rejects(store.saveTurn({ head: headAt(id, 3), baseTurns: 2, memory: SAID_HI, execution: [] }), {
      code: "session_conflict",
    });
    assert.deepEqual(marks(), created, "a refused turn writes nothing");
    await other.saveTurn({ head: headAt(id, 2), baseTurns: 1, memory: SAID_HI, execution: [] });
    const [own, read] = marks();
    assert.notEqual(own, created[0], "another connection's commit, seen by the store");
    assert.notEqual(read, created[1]);
  } finally {
    await reader.close();
    await other.close();
    await store.close();
  }
});

test("the SQLite store runs in WAL mode and creates its folder", async () => {
  const dir = await tempDir("sqlite-wal");
  const path = join(dir.path, "nested", "folder", "sessions.sqlite");
  const store = new SqliteSessionStore(path);
  try {
    const db = new Database(path, { readonly: true });
    assert.equal(db.pragma("journal_mode", { simple: true }), "wal");
    db.close();
  } finally {
    await store.close();
    dir.remove();
  }
});

test("sessions written by one store are read by a store opened later on the same file", async () => {
  const dir = await tempDir("sqlite-reopen");
  const path = join(dir.path, "sessions.sqlite");
  const id = "00000000-0000-4000-8000-00000000aaaa";
  try {
    const first = new SqliteSessionStore(path);
    await first.create({
      head: {
        id,
        version: 1,
        turns: 1,
        flow: { name: "BasicFlow", currentStep: "NameStep" },
        runStatus: "running",
        steps: {},
        children: [],
        createdAt: "2027-01-01T00:00:00.000Z",
        updatedAt: "2027-01-01T00:00:00.000Z",
      },
      baseTurns: 0,
      memory: [{ namespace: "flow", entry: { role: "user", content: "hi" } }],
      execution: [],
    });
    await first.close();
    const second = new SqliteSessionStore(path);
    assert.deepEqual((await second.fetchAll(id))?.memory, { flow: [{ role: "user", content: "hi" }] });
    await second.close();
  } finally {
    dir.remove();
  }
});

test("a store that cannot be opened fails with store_unavailable naming the path", async () => {
  const dir = await tempDir("sqlite-unopenable");
  // A regular file where the store expects a folder: no user, root included, can create a file below it.
  const blocker = join(dir.path, "not-a-folder");
  writeFileSync(blocker, "");
  const path = join(blocker, "sessions.sqlite");
  try {
    assert.throws(
      () => new SqliteSessionStore(path),
      (error) =>
        isFlowcheckError(error, "store_unavailable") &&
        error.message.includes(path) &&
        error.message.includes("SQLITE_PATH"),
    );
  } finally {
    dir.remove();
  }
});

test("closing a store twice is harmless", async () => {
  const store = new SqliteSessionStore(":memory:");
  await store.close();
  await store.close();
});

const FIXTURE = join(import.meta.dirname, "..", "..", "fixtures", "sessions", "v1.json");

/** A file as table layout 1 wrote it: a row per memory entry and per execution entry. */
function writeLayout1File(path: string, stored: StoredSession): void {
  const db = new Database(path);
  db.exec(`
    CREATE TABLE sessions (id TEXT PRIMARY KEY, turns INTEGER NOT NULL, head TEXT NOT NULL);
    CREATE TABLE session_messages (session_id TEXT NOT NULL, turn INTEGER NOT NULL, idx INTEGER NOT NULL, namespace TEXT NOT NULL, entry TEXT NOT NULL, PRIMARY KEY (session_id, turn, idx));
    CREATE TABLE session_execution (session_id TEXT NOT NULL, seq INTEGER NOT NULL, entry TEXT NOT NULL, PRIMARY KEY (session_id, seq));
  `);
  const head = stored.head as { id: string; turns: number };
  db.prepare("INSERT INTO sessions VALUES (?, ?, ?)").run(head.id, head.turns, JSON.stringify(head));
  // The fixture's memory is in order; a user message starts each turn.
  let turn = 0;
  let idx = 0;
  for (const { namespace, entry } of stored.memory) {
    if ((entry as { role: string }).role === "user" && namespace !== "flow") {
      turn += 1;
      idx = 0;
    }
    db.prepare("INSERT INTO session_messages VALUES (?, ?, ?, ?, ?)").run(
      head.id,
      turn,
      idx++,
      namespace,
      JSON.stringify(entry),
    );
  }
  for (const entry of stored.execution as { seq: number }[])
    db.prepare("INSERT INTO session_execution VALUES (?, ?, ?)").run(head.id, entry.seq, JSON.stringify(entry));
  db.close();
}

test("a file of the earlier table layout (a row per entry) is brought up to one row per turn on open, losing nothing", async () => {
  const dir = await tempDir("sqlite-layout-1");
  const path = join(dir.path, "sessions.sqlite");
  const stored = (JSON.parse(readFileSync(FIXTURE, "utf8")) as { stored: StoredSession }).stored;
  const id = (stored.head as { id: string }).id;
  try {
    writeLayout1File(path, stored);
    const store = new SqliteSessionStore(path);
    try {
      assert.deepEqual(await store.fetchAll(id), migrateSession(stored, id, "the fixture"));
      const db = new Database(path, { readonly: true });
      const tables = (
        db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]
      ).map((row) => row.name);
      assert.deepEqual(tables, ["session_turns", "sessions", "turn_answers"]);
      assert.equal((db.prepare("SELECT COUNT(*) AS n FROM session_turns").get() as { n: number }).n, 2);
      db.close();
    } finally {
      await store.close();
    }
  } finally {
    dir.remove();
  }
});

test("a file of a newer table layout is refused with store_unavailable naming both layouts, and left as it is", async () => {
  const dir = await tempDir("sqlite-layout-new");
  const path = join(dir.path, "sessions.sqlite");
  try {
    const db = new Database(path);
    db.pragma("user_version = 9");
    db.close();
    for (const options of [{}, { readonly: true }]) {
      assert.throws(
        () => new SqliteSessionStore(path, options),
        (error) =>
          isFlowcheckError(error, "store_unavailable") &&
          /layout 9/.test(error.message) &&
          error.message.includes(path),
      );
    }
    const after = new Database(path, { readonly: true });
    assert.equal(after.pragma("user_version", { simple: true }), 9);
    after.close();
  } finally {
    dir.remove();
  }
});

test("a turn's row that is not JSON makes the session unreadable, naming the turn; its head can still be read", async () => {
  const dir = await tempDir("sqlite-damaged-turn");
  const path = join(dir.path, "sessions.sqlite");
  const id = "00000000-0000-4000-8000-00000000bbbb";
  const store = new SqliteSessionStore(path);
  try {
    const head = {
      id,
      version: SESSION_DOCUMENT_VERSION,
      turns: 1,
      flow: { name: "BasicFlow", currentStep: "NameStep" },
      runStatus: "running" as const,
      steps: {},
      children: [],
      createdAt: "2027-01-01T00:00:00.000Z",
      updatedAt: "2027-01-01T00:00:00.000Z",
    };
    await store.create({
      head,
      baseTurns: 0,
      memory: [{ namespace: "flow", entry: { role: "user", content: "hi" } }],
      execution: [],
    });
    const db = new Database(path);
    db.prepare("UPDATE session_turns SET memory = ? WHERE session_id = ?").run("[{ not json", id);
    db.close();
    await assert.rejects(
      store.fetchAll(id),
      (error) => isFlowcheckError(error, "session_unreadable") && /turn 1 are not JSON arrays/.test(error.message),
    );
    assert.deepEqual(await store.fetchHead(id), head);
  } finally {
    await store.close();
    dir.remove();
  }
});

test("a store that has written a few hundred turns copies its log into the file on another thread; closing stops it and folds the log in", async (t) => {
  const path = await sessionsFile(t, "sqlite-checkpointer");
  const id = "00000000-0000-4000-8000-00000000cccc";
  const store = new SqliteSessionStore(path);
  try {
    const head = (turns: number) => headAt(id, turns);
    const memory = SAID_HI;
    await store.create({ head: head(1), baseTurns: 0, memory, execution: [] });
    for (let turn = 2; turn <= 199; turn++)
      await store.saveTurn({ head: head(turn), baseTurns: turn - 1, memory, execution: [] });
    assert.equal(store.checkpointsInBackground, false, "a short run starts no thread");
    const before = statSync(path).size;
    // Fewer log pages than SQLite's own threshold: only the checkpointer can grow the file now.
    for (let turn = 200; turn <= 220; turn++)
      await store.saveTurn({ head: head(turn), baseTurns: turn - 1, memory, execution: [] });
    assert.equal(store.checkpointsInBackground, true);
    const deadline = Date.now() + 5000;
    while (statSync(path).size === before && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    assert.ok(
      statSync(path).size > before,
      `the database file stayed at ${before} bytes: nothing copied the log into it`,
    );
    assert.equal((await store.fetchHead(id))?.turns, 220);
  } finally {
    await store.close();
  }
  assert.equal(existsSync(`${path}-wal`), false, "the last connection to close folds the log into the file");
  const reopened = new SqliteSessionStore(path);
  try {
    assert.equal((await reopened.fetchAll(id))?.memory["flow"]?.length, 220);
  } finally {
    await reopened.close();
  }
});
