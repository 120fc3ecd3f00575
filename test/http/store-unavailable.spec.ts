import assert from "node:assert/strict";
import { test } from "node:test";
import Database from "better-sqlite3";
import { jsonClient, type JsonAnswer } from "../support/json-client.ts";
import { ledgerFlows } from "../support/ledger-flow.ts";
import { startTestServer } from "../support/test-server.ts";

// A store that fails mid-turn is 503 store_unavailable, and nothing of the turn is written. The
// failure is real: another connection holds the SQLite file's write lock in an exclusive
// transaction, past the store's busy timeout (short here, so the spec does not wait 5 s).

function rowCounts(path: string): { sessions: number; turns: number } {
  const db = new Database(path, { readonly: true });
  try {
    const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    return { sessions: count("sessions"), turns: count("session_turns") };
  } finally {
    db.close();
  }
}

function assertUnavailable(answer: JsonAnswer, session: string | undefined): void {
  assert.equal(answer.status, 503, JSON.stringify(answer.body));
  const error = answer.body["error"] as { code: string; message: string };
  assert.equal(error.code, "store_unavailable");
  assert.match(
    error.message,
    /database is locked \(SQLITE_BUSY\)\. Nothing of the turn was stored; send the request again once the store is back\./,
  );
  assert.equal(answer.body["session"], session);
  assert.equal(answer.headers["chat_session_id"], session);
}

test("a store locked by another connection answers 503 store_unavailable with the session's id, writes nothing, and the next turn succeeds once the lock is gone", async () => {
  const server = await startTestServer({ flows: ledgerFlows, sqlite: { busyTimeoutMs: 50 } });
  const client = jsonClient(server.url);
  const lock = new Database(server.sqlitePath);
  try {
    const first = await client.post("/ai/chat", { flow: "LedgerFlow", message: "bolts" });
    const id = first.body["session"] as string;
    const before = await server.app.store.fetchAll(id);
    const counts = rowCounts(server.sqlitePath);

    lock.exec("BEGIN EXCLUSIVE");
    assertUnavailable(await client.post("/ai/chat", { message: "nuts" }, { CHAT_SESSION_ID: id }), id);
    assertUnavailable(await client.post("/ai/chat", { flow: "LedgerFlow", message: "screws" }), undefined);
    lock.exec("ROLLBACK");

    assert.deepStrictEqual(rowCounts(server.sqlitePath), counts, "no session and no turn row was written");
    assert.deepStrictEqual(await server.app.store.fetchAll(id), before, "the session is as it was");

    const next = await client.post("/ai/chat", { message: "nuts" }, { CHAT_SESSION_ID: id });
    assert.equal(next.status, 200, JSON.stringify(next.body));
    assert.equal(next.headers["chat_session_id"], id);
    const stored = await server.app.store.fetchHead(id);
    assert.equal(stored?.turns, 2);
    assert.deepStrictEqual(stored?.steps["LedgerStep"], { lines: ["bolts", "nuts"] });
  } finally {
    if (lock.inTransaction) lock.exec("ROLLBACK");
    lock.close();
    client.close();
    await server.close();
  }
});
