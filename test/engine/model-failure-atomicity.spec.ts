import assert from "node:assert/strict";
import { test } from "node:test";
import Database from "better-sqlite3";
import { basicFlowEntry, basicFlowScripts } from "../fixtures/flows/index.ts";
import { startFakeOpenAI, type CompletionRequest, type FakeOpenAI } from "../support/fake-openai-server.ts";
import { jsonClient, type JsonAnswer } from "../support/json-client.ts";
import { startTestServer, type TestServer } from "../support/test-server.ts";

// A model failure at any point of a turn (the first call, a call after a tool ran and changed the
// state, the final answer after complete(), a child flow's call) answers 502 model_error and leaves
// the SQLite file's rows exactly as they were: read raw, not only through fetchAll.

const ADDRESS = "1600 SW Murray Blvd, Beaverton, OR 97006";

interface Live {
  fake: FakeOpenAI;
  server: TestServer;
  client: ReturnType<typeof jsonClient>;
}

/** BasicFlow on the live model against the fake OpenAI server, with no SDK retries; closed after `body`. */
async function withLive(body: (live: Live) => Promise<void>): Promise<void> {
  const fake = await startFakeOpenAI(Object.values(basicFlowScripts));
  let server: TestServer | undefined;
  let client: ReturnType<typeof jsonClient> | undefined;
  try {
    server = await startTestServer({
      flows: [basicFlowEntry],
      env: {
        FLOW_MODEL: "live",
        OPENAI_API_KEY: "k",
        OPENAI_BASE_URL: fake.baseURL,
        OPENAI_MAX_RETRIES: "0",
        OPENAI_TIMEOUT_MS: "3000",
      },
    });
    client = jsonClient(server.url);
    await body({ fake, server, client });
  } finally {
    client?.close();
    await server?.close();
    await fake.close();
  }
}

/** Every table's rows as stored (each row as the JSON of its raw column values, sorted), and the schema. */
function rawRows(path: string): Record<string, string[]> {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const objects = db.prepare("SELECT type, name, sql FROM sqlite_master ORDER BY type, name").raw().all() as [
      string,
      string,
      string | null,
    ][];
    const rows: Record<string, string[]> = { "(schema)": objects.map((object) => JSON.stringify(object)) };
    for (const [type, name] of objects) {
      if (type !== "table") continue;
      rows[name] = (
        db
          .prepare(`SELECT * FROM "${name.replace(/"/g, '""')}"`)
          .raw()
          .all() as unknown[][]
      )
        .map((row) => JSON.stringify(row))
        .sort();
    }
    return rows;
  } finally {
    db.close();
  }
}

function chat(
  live: Live,
  message: string,
  session?: string,
  headers: Record<string, string> = {},
): Promise<JsonAnswer> {
  return live.client.post(
    "/ai/chat",
    session ? { message } : { flow: "BasicFlow", message },
    session ? { CHAT_SESSION_ID: session, ...headers } : headers,
  );
}

async function turn(live: Live, message: string, session?: string): Promise<JsonAnswer> {
  const answer = await chat(live, message, session);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer;
}

/**
 * Sends `message` with the model failing (HTTP 500) on the turn's `failAt`-th call (0-based), checks
 * the failed request is the one `where` expects, that the answer is 502 model_error, and that the
 * stored rows and the fetched document are exactly as before. Returns the failed request.
 */
async function failingTurn(
  live: Live,
  options: { session?: string; message: string; failAt: number; accept?: string },
): Promise<CompletionRequest> {
  const { session, message, failAt } = options;
  const rowsBefore = rawRows(live.server.sqlitePath);
  const documentBefore = session ? await live.server.app.engine.fetchAll(session) : undefined;
  if (session) assert.ok(documentBefore, `session ${session} is stored before the turn`);
  const base = live.fake.requests.length;
  let failed: CompletionRequest | undefined;
  live.fake.answer = (request, index) => {
    if (index !== base + failAt) return undefined;
    failed = request;
    return { status: 500, body: { error: { message: "the fake model is down", type: "server_error" } } };
  };
  let answer: JsonAnswer;
  try {
    answer = await chat(live, message, session, options.accept ? { accept: options.accept } : {});
  } finally {
    live.fake.answer = () => undefined;
  }
  assert.ok(
    failed,
    `the turn made ${live.fake.requests.length - base} model calls, so call ${failAt} never failed; answer ${answer.status} ${JSON.stringify(answer.body)}`,
  );
  assert.equal(live.fake.requests.length, base + failAt + 1, "the turn stopped at the failed call");

  assert.equal(answer.status, 502, JSON.stringify(answer.body));
  assert.match(String(answer.headers["content-type"]), /^application\/json/);
  assert.equal(answer.body["success"], false);
  const error = answer.body["error"] as { code: string; message: string };
  assert.equal(error.code, "model_error", JSON.stringify(answer.body));
  assert.match(error.message, /500/, "the provider's error is in the message");
  if (session) {
    assert.equal(answer.body["session"], session);
    assert.equal(answer.headers["chat_session_id"], session);
  }

  assert.deepStrictEqual(
    rawRows(live.server.sqlitePath),
    rowsBefore,
    "the SQLite rows are byte-for-byte as before the turn",
  );
  if (session) assert.deepStrictEqual(await live.server.app.engine.fetchAll(session), documentBefore);
  return failed;
}

function latest(request: CompletionRequest): CompletionRequest["messages"][number] | undefined {
  return request.messages.at(-1);
}

test("the first model call of a new session failing answers 502 model_error and stores no session", async () => {
  await withLive(async (live) => {
    const failed = await failingTurn(live, { message: "John Doe", failAt: 0 });
    assert.equal(latest(failed)?.content, "John Doe");
    assert.deepStrictEqual(rawRows(live.server.sqlitePath)["sessions"], []);
  });
});

test("the first model call of a turn failing answers 502 model_error and leaves the stored session byte-for-byte as before; the same message then applies once", async () => {
  await withLive(async (live) => {
    const id = (await turn(live, "John Doe")).body["session"] as string;
    const failed = await failingTurn(live, { session: id, message: "John Wick", failAt: 0 });
    assert.match(failed.messages[0]?.content ?? "", /collect the user's real full name/);
    assert.equal(latest(failed)?.content, "John Wick");

    const retried = await turn(live, "John Wick", id);
    assert.equal(retried.body["currentStep"], "WeatherStep");
    const document = await live.server.app.engine.fetchAll(id);
    assert.equal(document?.turns, 2);
    assert.deepStrictEqual(
      document?.memory["flow"]?.filter((m) => m.role === "user").map((m) => m.content),
      ["John Doe", "John Wick"],
    );
  });
});

test("a model call after a tool stayed and logged its call failing answers 502 model_error and stores neither the call nor the messages", async () => {
  await withLive(async (live) => {
    const id = (await turn(live, "John Doe")).body["session"] as string;
    const failed = await failingTurn(live, { session: id, message: "Jane Doe", failAt: 1 });
    // The tool ran: its result is what the failed call was asked to answer.
    assert.equal(latest(failed)?.role, "tool");
    assert.match(latest(failed)?.content ?? "", /"Jane Doe" is a placeholder/);
    assert.equal((await live.server.app.engine.fetchAll(id))?.execution.length, 1);
  });
});

test("after a failed turn the next turn's model sees the stored conversation, with nothing of the failed turn's messages", async () => {
  await withLive(async (live) => {
    const id = (await turn(live, "John Doe")).body["session"] as string;
    await failingTurn(live, { session: id, message: "Jane Doe", failAt: 1 });
    const base = live.fake.requests.length;
    await turn(live, "John Wick", id);
    const stored = (await live.server.app.engine.fetchAll(id))!.memory["NameStep"]!;
    // The retried turn's first request: the stored step memory up to its own user message.
    const upToUser = stored.slice(0, stored.findIndex((m) => m.role === "user" && m.content === "John Wick") + 1);
    const sent = live.fake.requests[base]!.messages.filter((m) => m.role !== "system");
    assert.deepStrictEqual(
      sent.map((m) => [m.role, m.content ?? ""]),
      upToUser.map((m) => [m.role, m.content]),
    );
    assert.ok(
      !sent.some((m) => (m.content ?? "").includes("Jane Doe")),
      "nothing of the failed turn reached the model",
    );
  });
});

test("a model call after a tool saved state and advanced the cursor failing answers 502 model_error and leaves the stored session byte-for-byte as before", async () => {
  await withLive(async (live) => {
    const id = (await turn(live, "John Doe")).body["session"] as string;
    // save_name saved the name and moved to WeatherStep; WeatherStep's model call fails.
    const named = await failingTurn(live, { session: id, message: "John Wick", failAt: 1 });
    assert.match(named.messages[0]?.content ?? "", /^The user is John Wick\./);
    const stored = await live.server.app.engine.fetchAll(id);
    assert.equal(stored?.flow.currentStep, "NameStep");
    assert.equal(stored?.steps["NameStep"]?.["name"], undefined, "the name the tool saved is not stored");

    await turn(live, "John Wick", id);
    // Two get_weather calls saved both cities and moved to AddressStep; AddressStep's call fails.
    const cities = await failingTurn(live, { session: id, message: "LA, NYC", failAt: 1 });
    assert.match(cities.messages[0]?.content ?? "", /^Weather found: LA 72°F, NYC 64°F\./);
    const after = await live.server.app.engine.fetchAll(id);
    assert.equal(after?.flow.currentStep, "WeatherStep");
    assert.deepStrictEqual(
      Object.keys(after?.steps["WeatherStep"] ?? {}),
      [],
      "the cities the tools saved are not stored",
    );
  });
});

test("the final answer after complete() failing answers 502 model_error, also for an event stream, and the run is still running with the session as before", async () => {
  await withLive(async (live) => {
    const id = (await turn(live, "John Wick")).body["session"] as string;
    await turn(live, "LA, NYC", id);
    // Calls: AddressStep (check_address), the child's two, then AddressStep's closing answer.
    const closing = await failingTurn(live, { session: id, message: ADDRESS, failAt: 3 });
    assert.match(closing.messages[0]?.content ?? "", /ask for their US postal address/);
    assert.match(latest(closing)?.content ?? "", /^Saved the address/);
    assert.equal(closing.tools, undefined, "after complete() the closing call is offered no tools");

    const streamed = await failingTurn(live, { session: id, message: ADDRESS, failAt: 3, accept: "text/event-stream" });
    assert.match(latest(streamed)?.content ?? "", /^Saved the address/);

    const stored = await live.server.app.engine.fetchAll(id);
    assert.equal(stored?.runStatus, "running");
    assert.equal(stored?.turns, 2);
    assert.deepStrictEqual(stored?.children, []);

    const done = await turn(live, ADDRESS, id);
    assert.equal(done.body["completed"], true);
    assert.equal((await live.server.app.engine.fetchAll(id))?.turns, 3);
  });
});

test("a child flow's model call failing, first or after its tool ran, answers 502 model_error and stores nothing of the child or the parent's turn", async () => {
  await withLive(async (live) => {
    const id = (await turn(live, "John Wick")).body["session"] as string;
    await turn(live, "LA, NYC", id);

    const first = await failingTurn(live, { session: id, message: ADDRESS, failAt: 1 });
    assert.match(first.messages[0]?.content ?? "", /Split the US postal address/);
    assert.equal(latest(first)?.content, ADDRESS);

    const afterTool = await failingTurn(live, { session: id, message: ADDRESS, failAt: 2 });
    assert.match(afterTool.messages[0]?.content ?? "", /Split the US postal address/);
    assert.equal(latest(afterTool)?.role, "tool");

    const stored = await live.server.app.engine.fetchAll(id);
    assert.deepStrictEqual(stored?.children, []);
    assert.equal(stored?.steps["AddressStep"]?.["address"], undefined);
    assert.equal(stored?.execution.filter((entry) => entry.kind === "child").length, 0);
  });
});
