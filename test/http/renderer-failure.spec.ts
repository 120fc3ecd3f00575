import assert from "node:assert/strict";
import { test } from "node:test";
import Database from "better-sqlite3";
import { jsonClient } from "../support/json-client.ts";
import { ledgerFlows, UNRENDERABLE } from "../support/ledger-flow.ts";
import { startTestServer, type TestServer } from "../support/test-server.ts";
import { textRequest, type TextAnswer } from "../support/text-request.ts";

// A renderer runs before the turn is saved (docs/reference/http-api.md): one that throws
// fails the turn as a throwing tool does, so the 500 that says "the turn was not applied" is true,
// and the message sent again is applied once.

/** POST /ai/chat with `body`, asking for `accept`, on `session` when given. */
function post(server: TestServer, accept: string, body: Record<string, string>, session?: string): Promise<TextAnswer> {
  const headers: Record<string, string> = { "Content-Type": "application/json", Accept: accept };
  if (session !== undefined) headers["CHAT_SESSION_ID"] = session;
  return textRequest(`${server.url}/ai/chat`, { method: "POST", headers, body: JSON.stringify(body) });
}

function sessionCount(path: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare("SELECT count(*) AS n FROM sessions").get() as { n: number }).n;
  } finally {
    db.close();
  }
}

test("a renderer that throws fails the turn before it is saved: 500 internal_error with the session's id, the stored session unchanged, and the message sent again as JSON is applied once", async () => {
  const logged: string[] = [];
  const server = await startTestServer({ flows: ledgerFlows, log: (line) => logged.push(line) });
  const client = jsonClient(server.url);
  try {
    const first = await client.post("/ai/chat", { flow: "LedgerFlow", message: "bolts" });
    const id = first.body["session"] as string;
    const before = await server.app.store.fetchAll(id);

    const failed = await post(server, "text/csv", { message: UNRENDERABLE }, id);
    assert.equal(failed.status, 500, failed.text);
    const body = JSON.parse(failed.text) as { session?: string; error: { code: string; message: string } };
    assert.equal(body.error.code, "internal_error");
    assert.match(body.error.message, /the turn was not applied/);
    assert.equal(body.session, id);
    assert.equal(failed.headers["chat_session_id"], id);
    assert.deepStrictEqual(await server.app.store.fetchAll(id), before, "nothing of the turn was stored");
    assert.match(logged.join("\n"), /The text\/csv renderer of LedgerFlow threw: cannot write the line "unrenderable"/);

    const again = await client.post("/ai/chat", { message: UNRENDERABLE }, { CHAT_SESSION_ID: id });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    const stored = await server.app.store.fetchHead(id);
    assert.equal(stored?.turns, 2);
    assert.deepStrictEqual(stored?.steps["LedgerStep"], { lines: ["bolts", UNRENDERABLE] }, "the line was added once");
  } finally {
    client.close();
    await server.close();
  }
});

test("a renderer that throws on a session's first turn stores no session and names none", async () => {
  const server = await startTestServer({ flows: ledgerFlows });
  try {
    const failed = await post(server, "text/csv", { flow: "LedgerFlow", message: UNRENDERABLE });
    assert.equal(failed.status, 500, failed.text);
    assert.equal((JSON.parse(failed.text) as { error: { code: string } }).error.code, "internal_error");
    assert.equal(failed.headers["chat_session_id"], undefined, "no session exists to name");
    assert.equal(sessionCount(server.sqlitePath), 0);
  } finally {
    await server.close();
  }
});

test("a turn asked for as text/csv is answered with the rendering of the turn it saved", async () => {
  const server = await startTestServer({ flows: ledgerFlows });
  try {
    const answer = await post(server, "text/csv, application/json", { flow: "LedgerFlow", message: "bolts" });
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.headers["content-type"], "text/csv; charset=utf-8");
    assert.equal(answer.text, "line,text,status\n1,bolts,running\n");
    const id = answer.headers["chat_session_id"] as string;
    assert.equal((await server.app.store.fetchHead(id))?.turns, 1);
  } finally {
    await server.close();
  }
});
