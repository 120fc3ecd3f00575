import assert from "node:assert/strict";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { isFlowcheckError } from "../../../../src/errors.ts";
import { LanggraphClient } from "../../../../src/testing/target/langgraph/langgraph-client.ts";
import { langgraphTurnView } from "../../../../src/testing/target/langgraph/langgraph-turn-view.ts";
import { startLanggraphDevServer, type LanggraphDevServer } from "../../../support/langgraph-dev-server.ts";

// Against the fixture project's dev server, which npm test installs first: without it they fail, saying how to install it.

describe("LanggraphClient against the LangGraph dev server", () => {
  let server: LanggraphDevServer;
  let client: LanggraphClient;

  before(async () => {
    server = await startLanggraphDevServer();
    client = new LanggraphClient({ baseUrl: server.baseUrl, timeoutMs: 30_000 });
  });

  after(async () => {
    await server?.close();
  });

  test("the intake graph waits at each node, a refused answer keeps it there, and its last node completes it", async () => {
    const thread = await client.createThread();
    const played: [string | undefined, string, boolean][] = [];
    const turn = async (input: { message: string } | { resume: unknown }) => {
      await client.runWait(thread, "intake", input);
      const view = langgraphTurnView(await client.threadState(thread));
      played.push([view.currentStep, view.answer, view.completed]);
      return view;
    };
    await turn({ message: "hi" });
    await turn({ resume: "Ada" });
    await turn({ resume: "Ada Lovelace" });
    await turn({ resume: "twelve" });
    await turn({ resume: "17" });
    await turn({ resume: "36" });
    await turn({ resume: "maybe" });
    const last = await turn({ resume: "yes" });
    assert.deepEqual(played, [
      ["name_step", "What is your full name?", false],
      ["name_step", "Please give your first and last name, e.g. Ada Lovelace.", false],
      ["age_step", "How old are you?", false],
      ["age_step", "Please give your age as a whole number from 18 to 120.", false],
      ["age_step", "Please give your age as a whole number from 18 to 120.", false],
      ["confirm_step", "Is this right: Ada Lovelace, 36? (yes/no)", false],
      ["confirm_step", "Please answer yes or no.", false],
      [undefined, "Thank you. Saved: Ada Lovelace, 36.", true],
    ]);
    assert.deepEqual(
      { ...last.state, messages: undefined },
      { messages: undefined, name: "Ada Lovelace", age: 36, confirmed: true, summary: "Ada Lovelace, 36" },
    );
  });

  test("runWait gives the run's output: the pending interrupt while it waits, the values once it ends", async () => {
    const thread = await client.createThread();
    const waiting = await client.runWait(thread, "intake", { message: "hi" });
    assert.deepEqual(
      (waiting["__interrupt__"] as { value: unknown }[]).map((interrupt) => interrupt.value),
      ["What is your full name?"],
    );
    const state = await client.threadState(thread);
    assert.deepEqual(state.next, ["name_step"]);
    assert.deepEqual(
      state.tasks.map((task) => [task.name, task.interrupts.map((interrupt) => interrupt.value)]),
      [["name_step", ["What is your full name?"]]],
    );
  });

  test("the chat graph keeps its step and completion in its state keys, and answers each message", async () => {
    const thread = await client.createThread();
    const entry = { step: "/values/step", completed: "/values/done" };
    const played: [string | undefined, string, boolean][] = [];
    for (const message of ["hi", "Ada Lovelace", "ada at example", "ada@example.com"]) {
      await client.runWait(thread, "chat", { message });
      const view = langgraphTurnView(await client.threadState(thread), entry);
      played.push([view.currentStep, view.answer, view.completed]);
    }
    assert.deepEqual(played, [
      ["NameStep", "Please tell me your first and last name.", false],
      ["EmailStep", "Thanks, Ada Lovelace. What is your email address?", false],
      ["EmailStep", "That does not look like an email address; please send one like ada@example.com.", false],
      ["DoneStep", "All set, Ada Lovelace: we will write to ada@example.com.", true],
    ]);
    const { values } = await client.threadState(thread);
    assert.deepEqual(
      { ...values, messages: undefined },
      { messages: undefined, step: "DoneStep", done: true, name: "Ada Lovelace", email: "ada@example.com" },
    );
    assert.equal((values["messages"] as unknown[]).length, 8);
  });

  test("graphIds lists the served graphs and graphNodes a graph's nodes without its start and end", async () => {
    assert.deepEqual(await client.graphIds(), ["agent", "approval", "chat", "intake"]);
    assert.deepEqual(await client.graphNodes("intake"), ["name_step", "age_step", "confirm_step", "summary_step"]);
    assert.deepEqual(await client.graphNodes("chat"), ["respond"]);
  });

  test("a graph the server lacks is target_invalid_answer naming it and the graphs the server has", async () => {
    const thread = await client.createThread();
    const lacks = (method: string, path: string) => (error: unknown) => {
      assert.ok(isFlowcheckError(error, "target_invalid_answer"), String(error));
      assert.ok(error.message.startsWith(`${method} ${server.baseUrl}${path} answered 404`), error.message);
      assert.match(error.message, /has no graph billing; it has: agent, approval, chat, intake\./);
      return true;
    };
    await assert.rejects(client.graphNodes("billing"), lacks("GET", "/assistants/billing/graph"));
    await assert.rejects(
      client.runWait(thread, "billing", { message: "hi" }),
      lacks("POST", `/threads/${thread}/runs/wait`),
    );
  });

  test("a thread the server lacks is target_invalid_answer quoting the server's 404", async () => {
    const missing = "00000000-0000-4000-8000-000000000000";
    await assert.rejects(client.threadState(missing), (error: unknown) => {
      assert.ok(isFlowcheckError(error, "target_invalid_answer"), String(error));
      assert.equal(
        error.message,
        `GET ${server.baseUrl}/threads/${missing}/state answered 404 Not Found: "Thread with ID ${missing} not found". ` +
          "The LangGraph server refused the request: see its log, and if the request is wrong fix the target's baseUrl " +
          "or the target's headers in flowcheck.config.json.",
      );
      return true;
    });
  });
});

/** A server on 127.0.0.1 answering each request with `answer`, and the requests it was sent. */
async function tinyServer(answer: (respond: (status: number, body: string) => void) => void) {
  const seen: { method: string; path: string; headers: IncomingHttpHeaders; body: string }[] = [];
  const server: Server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
    request.on("end", () => {
      seen.push({ method: request.method!, path: request.url!, headers: request.headers, body });
      answer((status, text) => response.writeHead(status, { "content-type": "application/json" }).end(text));
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () =>
    new Promise<void>((done) => {
      server.closeAllConnections();
      server.close(() => done());
    });
  return { url, seen, close };
}

test("a port nothing listens on is target_unreachable naming the method, the URL and the refusal", async () => {
  const closed = await tinyServer(() => undefined);
  await closed.close();
  const client = new LanggraphClient({ baseUrl: closed.url });
  await assert.rejects(client.createThread(), (error: unknown) => {
    assert.ok(isFlowcheckError(error, "target_unreachable"), String(error));
    assert.match(error.message, new RegExp(`^POST ${closed.url}/threads could not be reached \\(ECONNREFUSED\\); `));
    assert.match(error.message, /is the LangGraph server running there\?/);
    return true;
  });
});

test("a server that never answers is target_unreachable once the request's timeoutMs has passed", async () => {
  const silent = await tinyServer(() => undefined);
  try {
    const client = new LanggraphClient({ baseUrl: silent.url, timeoutMs: 50 });
    await assert.rejects(client.threadState("t-1"), (error: unknown) => {
      assert.ok(isFlowcheckError(error, "target_unreachable"), String(error));
      assert.match(
        error.message,
        new RegExp(`^GET ${silent.url}/threads/t-1/state gave no whole answer within 50 ms; `),
      );
      return true;
    });
  } finally {
    await silent.close();
  }
});

test("a client made for a named target says which of its keys in flowcheck.config.json to fix", async () => {
  const silent = await tinyServer(() => undefined);
  try {
    const client = new LanggraphClient({ baseUrl: silent.url, timeoutMs: 50 }, "graphs");
    await assert.rejects(client.graphNodes("chat"), {
      code: "target_unreachable",
      message: `GET ${silent.url}/assistants/chat/graph gave no whole answer within 50 ms; the LangGraph server may be stuck, or slower than that: raise targets.graphs.timeoutMs in flowcheck.config.json if so, or look at the server's log.`,
    });
  } finally {
    await silent.close();
  }
});

test("an error status is target_invalid_answer with the status, the body cut to 300 characters, and what to fix", async () => {
  const failing = await tinyServer((respond) => respond(500, "x".repeat(1000)));
  try {
    const client = new LanggraphClient({ baseUrl: failing.url });
    await assert.rejects(client.graphIds(), (error: unknown) => {
      assert.ok(isFlowcheckError(error, "target_invalid_answer"), String(error));
      assert.equal(
        error.message,
        `POST ${failing.url}/assistants/search answered 500 Internal Server Error: ${JSON.stringify("x".repeat(1000)).slice(0, 300)}…. ` +
          "The LangGraph server refused the request: see its log, and if the request is wrong fix the target's baseUrl " +
          "or the target's headers in flowcheck.config.json.",
      );
      return true;
    });
  } finally {
    await failing.close();
  }
});

test("a body that is not JSON is target_invalid_answer quoting it", async () => {
  const html = await tinyServer((respond) => respond(200, "<html>welcome</html>"));
  try {
    const client = new LanggraphClient({ baseUrl: html.url });
    await assert.rejects(client.createThread(), (error: unknown) => {
      assert.ok(isFlowcheckError(error, "target_invalid_answer"), String(error));
      assert.equal(
        error.message,
        `POST ${html.url}/threads answered 200 with a body that is not JSON (content-type application/json): ` +
          `"<html>welcome</html>". Is ${html.url}/threads a LangGraph server? Check the target's baseUrl in flowcheck.config.json.`,
      );
      return true;
    });
  } finally {
    await html.close();
  }
});

test("a run that raised is target_run_failed quoting the graph's error", async () => {
  // runs/wait answers 200 and carries the error in the body, the message nested as JSON, as the dev server does.
  const nested = JSON.stringify({ error: "Error", message: "Unable to coerce message from array" });
  const raising = await tinyServer((respond) =>
    respond(200, JSON.stringify({ __error__: { error: "Error", message: nested } })),
  );
  try {
    const client = new LanggraphClient({ baseUrl: raising.url });
    await assert.rejects(client.runWait("t-1", "chat", { message: "hi" }), (error: unknown) => {
      assert.ok(isFlowcheckError(error, "target_run_failed"), String(error));
      assert.match(
        error.message,
        new RegExp(
          `^POST ${raising.url}/threads/t-1/runs/wait: the run of graph chat failed: "Error: Unable to coerce message from array"`,
        ),
      );
      return true;
    });
  } finally {
    await raising.close();
  }
});

test("every request carries the caller's headers, and a turn sends its message or its resume value", async () => {
  const echo = await tinyServer((respond) => respond(200, "{}"));
  try {
    const client = new LanggraphClient({ baseUrl: `${echo.url}/`, headers: { "x-api-key": "k-1" } });
    await client.runWait("t-1", "chat", { message: "hi" });
    await client.runWait("t 2", "intake", { resume: { age: 36 } });
    assert.deepEqual(
      echo.seen.map(({ method, path, headers, body }) => [method, path, headers["x-api-key"], JSON.parse(body)]),
      [
        [
          "POST",
          "/threads/t-1/runs/wait",
          "k-1",
          { assistant_id: "chat", input: { messages: [{ role: "user", content: "hi" }] } },
        ],
        ["POST", "/threads/t%202/runs/wait", "k-1", { assistant_id: "intake", command: { resume: { age: 36 } } }],
      ],
    );
  } finally {
    await echo.close();
  }
});
