import assert from "node:assert/strict";
import { test } from "node:test";
import Database from "better-sqlite3";
import { jsonClient } from "../support/json-client.ts";
import { ledgerFlows, UNRENDERABLE } from "../support/ledger-flow.ts";
import { startTestServer, type TestServer } from "../support/test-server.ts";
import { textRequest, type TextAnswer } from "../support/text-request.ts";

// GET /ai/sessions/:id reads a session and never changes it: the view a chat answer gives, or the
// flow's rendering by Accept, at any time, a completed session included (whose POST stays 409).

function getSession(server: TestServer, id: string, accept?: string): Promise<TextAnswer> {
  return textRequest(`${server.url}/ai/sessions/${id}`, accept === undefined ? {} : { headers: { Accept: accept } });
}

function errorOf(answer: TextAnswer): { code: string; message: string } {
  return (JSON.parse(answer.text) as { error: { code: string; message: string } }).error;
}

test("GET /ai/sessions/:id answers a completed session's view and, with Accept: text/csv, its rendering, while a message to it stays 409", async () => {
  const server = await startTestServer({ flows: ledgerFlows });
  const client = jsonClient(server.url);
  try {
    const first = await client.post("/ai/chat", { flow: "LedgerFlow", message: "bolts" });
    const id = first.body["session"] as string;
    const running = await getSession(server, id);
    assert.equal(running.status, 200, running.text);
    assert.deepStrictEqual(JSON.parse(running.text), {
      success: true,
      session: id,
      flow: "LedgerFlow",
      currentStep: "LedgerStep",
      runStatus: "running",
      completed: false,
      turns: 1,
    });

    await client.post("/ai/chat", { message: "nuts" }, { CHAT_SESSION_ID: id });
    const closed = await client.post("/ai/chat", { message: "close" }, { CHAT_SESSION_ID: id });
    assert.equal(closed.body["completed"], true);
    const refused = await client.post("/ai/chat", { message: "more" }, { CHAT_SESSION_ID: id });
    assert.equal(refused.status, 409);
    assert.equal((refused.body["error"] as { code: string }).code, "flow_completed");
    const before = await server.app.store.fetchAll(id);

    const view = await getSession(server, id, "application/json");
    assert.equal(view.status, 200, view.text);
    assert.equal(view.headers["content-type"], "application/json; charset=utf-8");
    assert.equal(view.headers["chat_session_id"], id);
    assert.deepStrictEqual(JSON.parse(view.text), {
      success: true,
      session: id,
      flow: "LedgerFlow",
      currentStep: "LedgerStep",
      runStatus: "completed",
      completed: true,
      turns: 3,
    });

    for (let read = 1; read <= 2; read++) {
      const csv = await getSession(server, id, "text/csv");
      assert.equal(csv.status, 200, csv.text);
      assert.equal(csv.headers["content-type"], "text/csv; charset=utf-8");
      assert.equal(csv.headers["chat_session_id"], id);
      assert.equal(csv.text, "line,text,status\n1,bolts,completed\n2,nuts,completed\n", `read ${read}`);
    }
    const fallback = await getSession(server, id, "text/plain, application/json");
    assert.equal(
      fallback.headers["content-type"],
      "application/json; charset=utf-8",
      "a type the flow does not render falls back to the view",
    );
    assert.deepStrictEqual(await server.app.store.fetchAll(id), before, "reading changed nothing");
  } finally {
    client.close();
    await server.close();
  }
});

test("GET /ai/sessions/:id of no stored session is 404 session_not_found; another method is 405 naming GET", async () => {
  const server = await startTestServer({ flows: ledgerFlows });
  try {
    const missing = await getSession(server, "00000000-0000-4000-8000-000000000000");
    assert.equal(missing.status, 404, missing.text);
    assert.equal(errorOf(missing).code, "session_not_found");
    assert.match(
      errorOf(missing).message,
      /There is no session "00000000-0000-4000-8000-000000000000"\. Start one with POST \/ai\/chat and "flow"\./,
    );
    assert.equal(missing.headers["chat_session_id"], undefined);

    const posted = await textRequest(`${server.url}/ai/sessions/00000000-0000-4000-8000-000000000000`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{}",
    });
    assert.equal(posted.status, 405, posted.text);
    assert.equal(errorOf(posted).code, "method_not_allowed");
    assert.equal(posted.headers["allow"], "GET");
  } finally {
    await server.close();
  }
});

test("GET /ai/sessions/:id of a session this version cannot read is 404 session_not_found saying why, the document kept", async () => {
  const server = await startTestServer({ flows: ledgerFlows });
  const client = jsonClient(server.url);
  try {
    const id = (await client.post("/ai/chat", { flow: "LedgerFlow", message: "bolts" })).body["session"] as string;
    const db = new Database(server.sqlitePath);
    const storedHead = () => (db.prepare("SELECT head FROM sessions WHERE id = ?").get(id) as { head: string }).head;
    try {
      const newer = JSON.stringify({ ...(JSON.parse(storedHead()) as object), version: 99 });
      db.prepare("UPDATE sessions SET head = ? WHERE id = ?").run(newer, id);
      const answer = await getSession(server, id);
      assert.equal(answer.status, 404, answer.text);
      assert.equal(errorOf(answer).code, "session_not_found");
      assert.match(
        errorOf(answer).message,
        /is stored, but this version cannot read it \(it is version 99, newer than this version's \d+\)/,
      );
      assert.equal(storedHead(), newer);
    } finally {
      db.close();
    }
  } finally {
    client.close();
    await server.close();
  }
});

test("GET /ai/sessions/:id whose renderer throws is 500 internal_error with the session's id, and the view still answers", async () => {
  const logged: string[] = [];
  const server = await startTestServer({ flows: ledgerFlows, log: (line) => logged.push(line) });
  const client = jsonClient(server.url);
  try {
    const id = (await client.post("/ai/chat", { flow: "LedgerFlow", message: UNRENDERABLE })).body["session"] as string;
    const failed = await getSession(server, id, "text/csv");
    assert.equal(failed.status, 500, failed.text);
    assert.equal(errorOf(failed).code, "internal_error");
    assert.equal(failed.headers["chat_session_id"], id);
    assert.match(logged.join("\n"), /GET \/ai\/sessions\/:id failed: .*The text\/csv renderer of LedgerFlow threw/);
    assert.equal((await getSession(server, id)).status, 200);
  } finally {
    client.close();
    await server.close();
  }
});
