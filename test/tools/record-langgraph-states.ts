// Records the thread states test/testing/target/langgraph/langgraph-turn-view.spec.ts reads, as
// the LangGraph dev server answers GET /threads/{id}/state for the fixture project's graphs. Run it
// again after upgrading the fixture's packages:
//   node --import tsx test/tools/record-langgraph-states.ts
import { writeFileSync } from "node:fs";
import { LanggraphClient } from "../../src/testing/target/langgraph/langgraph-client.ts";
import { startLanggraphDevServer } from "../support/langgraph-dev-server.ts";

const OUT = new URL("../fixtures/langgraph-states/", import.meta.url);

const server = await startLanggraphDevServer();
const client = new LanggraphClient({ baseUrl: server.baseUrl });
/** The server's own answer, not the client's reading of it. */
async function record(name: string, thread: string): Promise<void> {
  const state: unknown = await (await fetch(`${server.baseUrl}/threads/${thread}/state`)).json();
  writeFileSync(new URL(`${name}.json`, OUT), `${JSON.stringify(state, null, 2)}\n`);
}

try {
  const intake = await client.createThread();
  await client.runWait(intake, "intake", { message: "hi" });
  await record("intake-asks-name", intake);
  await client.runWait(intake, "intake", { resume: "Ada Lovelace" });
  await client.runWait(intake, "intake", { resume: "twelve" });
  await record("intake-refused-age", intake);
  await client.runWait(intake, "intake", { resume: "36" });
  await client.runWait(intake, "intake", { resume: "yes" });
  await record("intake-completed", intake);
  const chat = await client.createThread();
  await client.runWait(chat, "chat", { message: "hi" });
  await record("chat-refused-name", chat);
  await client.runWait(chat, "chat", { message: "Ada Lovelace" });
  await client.runWait(chat, "chat", { message: "ada@example.com" });
  await record("chat-done", chat);
} finally {
  await server.close();
}
