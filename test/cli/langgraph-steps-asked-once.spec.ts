import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { join } from "node:path";
import { test } from "node:test";
import { runFlowcheck } from "../support/child-run.ts";
import { listenOnLoopback } from "../support/loopback-server.ts";
import { tempDir } from "../support/temp-path.ts";

// A LangGraph server of one graph, chat, whose every thread waits at its one node, greet, asking
// for a name: enough of the API for a one-turn scenario, counting the requests it is sent.
async function fakeLanggraphServer() {
  const requests: string[] = [];
  const waiting = {
    values: { messages: [] },
    next: ["greet"],
    tasks: [{ id: "task-1", name: "greet", interrupts: [{ id: "i-1", value: "What is your name?" }] }],
    metadata: { graph_id: "chat" },
  };
  const json = (response: ServerResponse, status: number, body: unknown) =>
    response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  const server = await listenOnLoopback((request, response) => {
    request.resume();
    const asked = `${request.method} ${request.url}`;
    requests.push(asked);
    if (asked === "GET /assistants/chat/graph")
      return json(response, 200, { nodes: [{ id: "__start__" }, { id: "greet" }, { id: "__end__" }] });
    if (asked === "POST /assistants/search") return json(response, 200, [{ graph_id: "chat" }]);
    if (asked === "POST /threads") return json(response, 200, { thread_id: randomUUID() });
    if (/^POST \/threads\/[^/]+\/runs\/wait$/.test(asked))
      return json(response, 200, { messages: [], __interrupt__: [{ id: "i-1", value: "What is your name?" }] });
    if (/^GET \/threads\/[^/]+\/state$/.test(asked)) {
      // The store's probe asks for a thread no server made.
      if (asked.includes("00000000-0000-0000-0000-000000000000")) return json(response, 404, { detail: "no thread" });
      return json(response, 200, waiting);
    }
    return json(response, 404, { detail: `no route ${asked}` });
  });
  return { ...server, requests };
}

test("a run asks the LangGraph server for a graph's steps once, however many of its scenarios are loaded and started", async (t) => {
  const server = await fakeLanggraphServer();
  t.after(() => server.close());
  const dir = await tempDir("langgraph-steps-once");
  t.after(() => dir.remove());
  mkdirSync(join(dir.path, "conversations"));
  const targets = { graphs: { kind: "langgraph", baseUrl: server.url } };
  writeFileSync(join(dir.path, "flowcheck.config.json"), JSON.stringify({ targets }));
  for (const name of ["first", "second", "third"]) {
    const turn = { label: "greets", input: "hi", expectedActiveStep: "greet", responseMustInclude: ["name"] };
    const scenario = { flowName: "chat", target: "graphs", turns: [turn] };
    writeFileSync(join(dir.path, "conversations", `${name}.scenario.json`), JSON.stringify(scenario));
  }
  const run = await runFlowcheck(["test", "conversations", "--test-reporter=spec"], {}, undefined, dir.path);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  // Three scenarios played, each on a thread of its own...
  assert.equal(server.requests.filter((request) => request === "POST /threads").length, 3, run.stdout);
  // ...and the graph asked for at load, its answer shared with every scenario's start.
  assert.deepEqual(
    server.requests.filter((request) => request === "GET /assistants/chat/graph"),
    ["GET /assistants/chat/graph"],
  );
});
