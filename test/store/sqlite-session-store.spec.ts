import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import Database from "better-sqlite3";
import { isFlowcheckError } from "../../src/errors.ts";
import { SqliteSessionStore } from "../../src/store/sqlite/sqlite-session-store.ts";
import { tempDir } from "../support/temp-path.ts";
import { describeSessionStoreContract } from "./session-store-contract.ts";

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
        id, version: 1, turns: 1, flow: { name: "BasicFlow", currentStep: "NameStep" }, runStatus: "running",
        steps: {}, children: [], createdAt: "2027-01-01T00:00:00.000Z", updatedAt: "2027-01-01T00:00:00.000Z",
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
      (error) => isFlowcheckError(error, "store_unavailable") && error.message.includes(path) && error.message.includes("SQLITE_PATH"),
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
