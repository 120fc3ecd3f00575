import assert from "node:assert/strict";
import { test } from "node:test";
import Database from "better-sqlite3";
import { basicFlowEntry } from "../fixtures/flows/index.ts";
import { jsonClient } from "../support/json-client.ts";
import { startTestServer, type TestServer } from "../support/test-server.ts";
import { noteProjectProof } from "../support/project-proof.ts";

/** Rewrites a stored session's head in place, as an older or newer program might have left it. */
function rewriteHead(server: TestServer, id: string, change: (head: Record<string, unknown>) => unknown): string {
  const db = new Database(server.sqlitePath);
  try {
    const row = db.prepare("SELECT head FROM sessions WHERE id = ?").get(id) as { head: string };
    const head = change(JSON.parse(row.head) as Record<string, unknown>);
    const text = typeof head === "string" ? head : JSON.stringify(head);
    db.prepare("UPDATE sessions SET head = ? WHERE id = ?").run(text, id);
    return text;
  } finally {
    db.close();
  }
}

function storedHead(server: TestServer, id: string): string | undefined {
  const db = new Database(server.sqlitePath, { readonly: true });
  try {
    return (db.prepare("SELECT head FROM sessions WHERE id = ?").get(id) as { head: string } | undefined)?.head;
  } finally {
    db.close();
  }
}

/**
 * Stores a BasicFlow session, changes its head with `change`, and checks that the next message
 * resets it: a new session in body and header, `reset: true`, the old document kept as it was.
 */
async function assertResetAfter(change: (head: Record<string, unknown>) => unknown): Promise<void> {
  const server = await startTestServer({ flows: [basicFlowEntry] });
  const client = jsonClient(server.url);
  try {
    const first = await client.post("/ai/chat", { flow: "BasicFlow", message: "John Wick" });
    const old = first.body["session"] as string;
    const kept = rewriteHead(server, old, change);

    const answer = await client.post("/ai/chat", { message: "John Doe" }, { CHAT_SESSION_ID: old });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const fresh = answer.body["session"] as string;
    assert.notEqual(fresh, old);
    assert.equal(answer.headers["chat_session_id"], fresh);
    assert.equal(answer.body["reset"], true);
    assert.equal(answer.body["currentStep"], "NameStep", "the message starts the flow again");
    assert.equal(storedHead(server, old), kept, "the old document is kept as it was");
    assert.equal((await server.app.store.fetchAll(fresh))?.turns, 1);

    const next = await client.post("/ai/chat", { message: "John Wick" }, { CHAT_SESSION_ID: fresh });
    assert.equal(next.body["reset"], undefined, "only the resetting answer says reset");
    assert.equal(next.body["currentStep"], "WeatherStep");
  } finally {
    client.close();
    await server.close();
  }
}

test("a session stored in a version this code cannot read is reset: a new id in body and header, reset true, the old one kept", async () => {
  await assertResetAfter((head) => ({ ...head, version: 99 }));
  noteProjectProof("10", "reset");
});

test("a damaged session whose flow cannot be read is refused with invalid_request unless the request names the flow", async () => {
  const server = await startTestServer({ flows: [basicFlowEntry] });
  const client = jsonClient(server.url);
  try {
    const first = await client.post("/ai/chat", { flow: "BasicFlow", message: "John Wick" });
    const old = first.body["session"] as string;
    rewriteHead(server, old, () => "{damaged");

    const refused = await client.post("/ai/chat", { message: "hello" }, { CHAT_SESSION_ID: old });
    assert.equal(refused.status, 400);
    const error = refused.body["error"] as { code: string; message: string };
    assert.equal(error.code, "invalid_request");
    assert.match(
      error.message,
      /cannot be read by this version \(its version is undefined\) and names no flow of this server; send "flow"/,
    );

    const named = await client.post("/ai/chat", { flow: "BasicFlow", message: "John Doe" }, { CHAT_SESSION_ID: old });
    assert.equal(named.status, 200);
    assert.equal(named.body["reset"], true);
    assert.notEqual(named.body["session"], old);
  } finally {
    client.close();
    await server.close();
  }
});

test("a session whose current step its flow no longer has takes the reset path: a new id in body and header, reset true, the old one kept", async () => {
  // As a flow's later version leaves a session when it renames or removes the step the session is on.
  await assertResetAfter((head) => ({ ...head, flow: { name: "BasicFlow", currentStep: "RetiredStep" } }));
});
