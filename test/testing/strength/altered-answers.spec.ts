import assert from "node:assert/strict";
import { join } from "node:path";
import { test, type TestContext } from "node:test";
import { loadConfig } from "../../../src/config.ts";
import { createApp, type App } from "../../../src/create-app.ts";
import { createNodeServer, listen } from "../../../src/http/node-server.ts";
import { SqliteSessionStore } from "../../../src/store/sqlite/sqlite-session-store.ts";
import { parseEventStream } from "../../../src/testing/answer/parse-event-stream.ts";
import type { Mutant } from "../../../src/testing/strength/mutant.ts";
import { plantedMutant } from "../../../src/testing/strength/planted-mutant.ts";
import { ledgerFlows } from "../../support/ledger-flow.ts";
import { tempDir } from "../../support/temp-path.ts";
import { textRequest } from "../../support/text-request.ts";

const ALTER_CSV: Mutant = {
  id: "LedgerFlow: alter text/csv rendering",
  flow: "LedgerFlow",
  change: { kind: "alter-render", mediaType: "text/csv" },
};
const ALTER_STREAM: Mutant = {
  id: "LedgerFlow: alter event stream",
  flow: "LedgerFlow",
  change: { kind: "alter-stream" },
};

interface TestServer {
  app: App;
  url: string;
}

/**
 * LedgerFlow's app on 127.0.0.1 and a SQLite file of its own, built and answering as the in-process
 * target builds a mutant's (its flows and its handler); closed and removed after the test.
 */
async function serverWith(t: TestContext, mutant?: Mutant): Promise<TestServer> {
  const planted = mutant && plantedMutant(mutant);
  const dir = await tempDir("altered-answers");
  const app = await createApp({
    flows: planted ? planted.flows(ledgerFlows) : ledgerFlows,
    config: loadConfig({}),
    store: new SqliteSessionStore(join(dir.path, "sessions.sqlite")),
    log: () => undefined,
  });
  const server = createNodeServer(planted ? planted.handler(app) : app.handler);
  t.after(async () => {
    await new Promise<void>((done) => server.close(() => done()));
    await app.close();
    dir.remove();
  });
  return { app, url: await listen(server, "127.0.0.1", 0) };
}

function chat(server: TestServer, accept: string, body: Record<string, string>, session?: string) {
  return textRequest(`${server.url}/ai/chat`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: accept, ...(session ? { CHAT_SESSION_ID: session } : {}) },
    body: JSON.stringify(body),
  });
}

/** The text the stream's token events spell, and the response its done event carries. */
function streamed(text: string): { spelled: string; response: string } {
  const events = parseEventStream(text);
  const spelled = events
    .filter((event) => event.event === "token")
    .map((event) => (JSON.parse(event.data) as { text: string }).text)
    .join("");
  const done = events.find((event) => event.event === "done");
  return { spelled, response: (JSON.parse(done!.data) as { response: string }).response };
}

test("a mutated CSV renderer changes the flow's CSV in the turn's answer and in GET /ai/sessions/:id, and nothing stored", async (t) => {
  const plain = await serverWith(t);
  const mutated = await serverWith(t, ALTER_CSV);
  const bodies: string[] = [];
  for (const server of [plain, mutated]) {
    const answer = await chat(server, "text/csv", { flow: "LedgerFlow", message: "bolts" });
    assert.equal(answer.status, 200, answer.text);
    const id = answer.headers["chat_session_id"] as string;
    const view = await textRequest(`${server.url}/ai/sessions/${id}`, { headers: { Accept: "text/csv" } });
    assert.equal(view.text, answer.text);
    assert.deepEqual((await server.app.store.fetchHead(id))?.steps, { LedgerStep: { lines: ["bolts"] } });
    assert.equal(await server.app.engine.render(id, "text/csv"), answer.text);
    bodies.push(answer.text);
  }
  assert.deepEqual(bodies, ["line,text,status\n1,bolts,running\n", "line,text,status\n1,bolts,running·\n"]);
});

test("a mutated CSV renderer leaves the JSON answer, and a mutant of another flow or type leaves the CSV", async (t) => {
  const other: Mutant[] = [
    { ...ALTER_CSV, flow: "OtherFlow" },
    { ...ALTER_CSV, change: { kind: "alter-render", mediaType: "text/tab-separated-values" } },
  ];
  for (const mutant of other) {
    const server = await serverWith(t, mutant);
    const answer = await chat(server, "text/csv", { flow: "LedgerFlow", message: "bolts" });
    assert.equal(answer.text, "line,text,status\n1,bolts,running\n");
  }
  const server = await serverWith(t, ALTER_CSV);
  const json = await chat(server, "application/json", { flow: "LedgerFlow", message: "bolts" });
  assert.equal((JSON.parse(json.text) as { response: string }).response, "Added line 1.");
});

test("the altered stream handler drops the last token event, so the tokens no longer spell the done event's response", async (t) => {
  const plain = await serverWith(t);
  const mutated = await serverWith(t, ALTER_STREAM);
  const start = { flow: "LedgerFlow", message: "bolts" };
  assert.deepEqual(streamed((await chat(plain, "text/event-stream", start)).text), {
    spelled: "Added line 1.",
    response: "Added line 1.",
  });
  const answer = await chat(mutated, "text/event-stream", start);
  assert.deepEqual(streamed(answer.text), { spelled: "Added line ", response: "Added line 1." });
  const next = await chat(
    mutated,
    "text/event-stream",
    { message: "nuts" },
    answer.headers["chat_session_id"] as string,
  );
  assert.deepEqual(streamed(next.text), { spelled: "Added line ", response: "Added line 2." });
  const other = await serverWith(t, { ...ALTER_STREAM, flow: "OtherFlow" });
  assert.deepEqual(streamed((await chat(other, "text/event-stream", start)).text), {
    spelled: "Added line 1.",
    response: "Added line 1.",
  });
});
