import assert from "node:assert/strict";
import { test } from "node:test";
import type { HttpTargetEntry } from "../../../src/testing/target/http/http-target-entry.ts";
import { HttpSessions } from "../../../src/testing/target/http/http-sessions.ts";
import { LanggraphClient } from "../../../src/testing/target/langgraph/langgraph-client.ts";
import { LanggraphSessions } from "../../../src/testing/target/langgraph/langgraph-sessions.ts";
import { listenOnLoopback } from "../../support/loopback-server.ts";

// The readers of targets that keep no count of turns: what they read has no `turns` at all, so
// neither a check nor a report can take a filled-in 0 for the count.

test("a LangGraph thread is read as a session without a turn count, the reader saying why", async (t) => {
  const server = await listenOnLoopback((request, response) => {
    request.resume();
    const state = {
      values: { step: "ask_age", name: "Ada" },
      next: ["ask_age"],
      tasks: [{ id: "task-1", name: "ask_age", interrupts: [{ value: "How old are you?" }] }],
      metadata: { graph_id: "intake" },
      created_at: "2026-12-02T00:00:00.000Z",
    };
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(state));
  });
  t.after(() => server.close());
  const sessions = new LanggraphSessions(new LanggraphClient({ baseUrl: server.url }), server.url, "intake", undefined);
  const stored = await sessions.fetchAll("thread-1");
  assert.ok(stored, "the thread is read");
  assert.equal("turns" in stored, false, JSON.stringify(stored));
  assert.deepEqual(
    [stored.flow, stored.runStatus, stored.steps],
    [{ name: "intake", currentStep: "ask_age" }, "running", { step: "ask_age", name: "Ada" }],
  );
  assert.match(sessions.turnsUnknown, /keeps checkpoints, not turns/);
});

test("an http target's state endpoint is read as a session without a turn count, the reader naming the entry", async (t) => {
  const server = await listenOnLoopback((request, response) => {
    request.resume();
    response
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ step: "EmailStep", done: false, state: { NameStep: { name: "Ada" } } }));
  });
  t.after(() => server.close());
  const entry: HttpTargetEntry = {
    kind: "http",
    baseUrl: server.url,
    turn: { path: "/chat", body: { message: "{{input}}" } },
    answer: {},
    state: { path: "/sessions/{{session}}", step: "/step", completed: "/done", state: "/state" },
  };
  const sessions = new HttpSessions(entry, "targets.shop", "ContactFlow");
  const stored = await sessions.fetchAll("s-1");
  assert.ok(stored, "the session is read");
  assert.equal("turns" in stored, false, JSON.stringify(stored));
  assert.deepEqual(
    [stored.flow, stored.runStatus, stored.steps],
    [{ name: "ContactFlow", currentStep: "EmailStep" }, "running", { NameStep: { name: "Ada" } }],
  );
  assert.equal(sessions.turnsUnknown, "targets.shop.state reads no count of turns, so the turn count is not checked");
});
