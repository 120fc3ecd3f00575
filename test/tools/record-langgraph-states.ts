// Records the thread states test/testing/target/langgraph/langgraph-turn-view.spec.ts and
// langgraph-tool-calls.spec.ts read, as
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
  const agent = await client.createThread();
  await client.runWait(agent, "agent", { message: "What is the weather in Lisbon?" });
  await record("agent-weather", agent);
  await client.runWait(agent, "agent", { message: "Book a table for 12 on Friday" });
  await record("agent-refused-booking", agent);
  await client.runWait(agent, "agent", { message: "A table for 4 on Friday, and the weather in Porto" });
  await record("agent-two-calls", agent);
  await client.runWait(agent, "agent", { message: "A table for many on Monday" });
  await record("agent-invalid-call", agent);
  // A run stopped before its tools ran, as a graph that asks before it books would stop: the call
  // waits for its tool message.
  const stopped = await client.createThread();
  const input = { messages: [{ role: "user", content: "A table for 2 on Monday" }] };
  const body = JSON.stringify({ assistant_id: "agent", input, interrupt_before: ["tools"] });
  const headers = { "content-type": "application/json" };
  await fetch(`${server.baseUrl}/threads/${stopped}/runs/wait`, { method: "POST", headers, body });
  // The wait answers a run stopped this way before its checkpoint can be read.
  while ((await client.threadState(stopped)).next.length === 0) await new Promise((done) => setTimeout(done, 100));
  await record("agent-before-tools", stopped);
} finally {
  await server.close();
}
