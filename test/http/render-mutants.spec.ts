import assert from "node:assert/strict";
import { test, type TestContext } from "node:test";
import type { Mutant } from "../../src/engine/mutant.ts";
import { parseEventStream } from "../../src/testing/answer/parse-event-stream.ts";
import { ledgerFlows } from "../support/ledger-flow.ts";
import { startTestServer, type TestServer } from "../support/test-server.ts";
import { textRequest } from "../support/text-request.ts";

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

async function serverWith(t: TestContext, mutant?: Mutant): Promise<TestServer> {
  const server = await startTestServer({ flows: ledgerFlows, ...(mutant ? { mutant } : {}) });
  t.after(() => server.close());
  return server;
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

test("alter-render changes the flow's CSV in the turn's answer and in GET /ai/sessions/:id, and nothing stored", async (t) => {
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

test("alter-render leaves the JSON answer, and a mutant of another flow or type leaves the CSV", async (t) => {
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

test("alter-stream drops the last token event, so the tokens no longer spell the done event's response", async (t) => {
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
});
