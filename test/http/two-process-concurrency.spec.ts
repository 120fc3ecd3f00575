import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { test, type TestContext } from "node:test";
import { FLOW_MEMORY } from "../../src/engine/session-document.ts";
import { SqliteSessionStore } from "../../src/store/sqlite/sqlite-session-store.ts";
import { basicFlowScripts } from "../fixtures/flows/index.ts";
import { killChildServer as kill, startChildServer, type ChildServer as Server } from "../support/child-server.ts";
import { startFakeOpenAI } from "../support/fake-openai-server.ts";
import { tempDir } from "../support/temp-path.ts";

// Two real server processes on one SQLite file, and clients that send their turns to both of them
// on a few shared sessions: a turn is either answered (200) and stored once, in its client's order,
// or refused with 409 session_conflict and not stored at all. Nothing else may come back.

const CLIENTS = 8;
const TURNS_PER_CLIENT = 20;
const SESSIONS = 2;

interface Answer {
  status: number;
  body: Record<string, any>;
}

function post(url: string, agent: http.Agent, body: unknown, session?: string): Promise<Answer> {
  const target = new URL("/ai/chat", url);
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (session) headers["CHAT_SESSION_ID"] = session;
  return new Promise((done, fail) => {
    const req = http.request(
      { host: target.hostname, port: target.port, path: target.pathname, method: "POST", headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", fail);
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          try {
            done({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, any> });
          } catch {
            done({ status: res.statusCode ?? 0, body: { unparsed: text } });
          }
        });
      },
    );
    req.on("error", fail);
    req.end(JSON.stringify(body));
  });
}

/**
 * Client `client`'s message for its turn `turn`: "John Doe" with client+1 spaces and turn+1 tabs
 * between the words. NameStep normalises the whitespace, so every one is the placeholder and the
 * session stays on NameStep, yet each message is distinct (and under save_name's 100 characters).
 */
function placeholder(client: number, turn: number): string {
  return `John${" ".repeat(client + 1)}${"\t".repeat(turn + 1)}Doe`;
}

interface Sent {
  client: number;
  turn: number;
  session: string;
  server: string;
  message: string;
  status: number;
  code: string | undefined;
}

/**
 * Starts SESSIONS sessions, then lets CLIENTS clients each send TURNS_PER_CLIENT turns, one after
 * another, each on its own keep-alive connections: client c's turn n goes to session (c+n) mod
 * SESSIONS on server n mod 2, so every client alternates servers and every session gets turns from
 * both processes and several clients at once. Then stops the servers and checks the stored sessions.
 */
async function playAndCheck(t: TestContext, servers: Server[], sqlitePath: string): Promise<void> {
  const agents: http.Agent[] = [];
  const agentFor = () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    agents.push(agent);
    return agent;
  };
  const logs = () => servers.map((server) => `--- server ${server.name}:\n${server.output()}`).join("\n");
  let sent: Sent[] = [];
  const sessions: string[] = [];
  const starts: string[] = [];
  try {
    for (let s = 0; s < SESSIONS; s++) {
      const message = `Jane${" ".repeat(s + 1)}Doe`;
      const answer = await post(servers[s % 2]!.url, agentFor(), { flow: "BasicFlow", message });
      assert.equal(answer.status, 200, `${JSON.stringify(answer.body)}\n${logs()}`);
      sessions.push(answer.body["session"] as string);
      starts.push(message);
    }

    const transportErrors: string[] = [];
    const client = async (c: number) => {
      const own = servers.map(() => agentFor());
      const mine: Sent[] = [];
      for (let n = 0; n < TURNS_PER_CLIENT; n++) {
        const session = sessions[(c + n) % SESSIONS]!;
        const which = n % 2;
        const server = servers[which]!;
        const message = placeholder(c, n);
        let answer: Answer;
        try {
          answer = await post(server.url, own[which]!, { message }, session);
        } catch (error) {
          transportErrors.push(`client ${c} turn ${n} to ${server.name}: ${String(error)}`);
          continue;
        }
        mine.push({
          client: c,
          turn: n,
          session,
          server: server.name,
          message,
          status: answer.status,
          code: answer.body["error"]?.code,
        });
        if (answer.status === 200) {
          assert.equal(answer.body["session"], session, JSON.stringify(answer.body));
          assert.equal(answer.body["currentStep"], "NameStep", JSON.stringify(answer.body));
        }
      }
      return mine;
    };
    sent = (await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)))).flat();

    const answered = sent.filter((s) => s.status === 200);
    const conflicts = sent.filter((s) => s.status === 409 && s.code === "session_conflict");
    t.diagnostic(
      `${answered.length} answered, ${conflicts.length} session_conflict, of ${CLIENTS * TURNS_PER_CLIENT} turns on ${SESSIONS} sessions`,
    );
    t.diagnostic(
      servers
        .map((server) => `server ${server.name}: ${answered.filter((s) => s.server === server.name).length} answered`)
        .join(", "),
    );

    assert.deepStrictEqual(transportErrors, [], logs());
    const unexpected = sent.filter((s) => !(s.status === 200 || (s.status === 409 && s.code === "session_conflict")));
    assert.deepStrictEqual(
      unexpected.map((s) => `client ${s.client} turn ${s.turn} to ${s.server}: ${s.status} ${s.code ?? ""}`),
      [],
      `only 200 and 409 session_conflict may come back\n${logs()}`,
    );
    assert.equal(sent.length, CLIENTS * TURNS_PER_CLIENT);
  } finally {
    for (const agent of agents) agent.destroy();
    for (const server of servers) await kill(server);
  }

  const store = new SqliteSessionStore(sqlitePath, { readonly: true });
  try {
    for (const [index, id] of sessions.entries()) {
      const document = await store.fetchAll(id);
      assert.ok(document, `session ${id} is stored`);
      const flow = document.memory[FLOW_MEMORY] ?? [];
      const users = flow.filter((entry) => entry.role === "user").map((entry) => entry.content);
      const mine = sent.filter((s) => s.session === id);
      const expected = [starts[index]!, ...mine.filter((s) => s.status === 200).map((s) => s.message)];

      assert.equal(document.turns, users.length, `${id}: turns equals the number of user messages`);
      assert.equal(document.flow.currentStep, "NameStep");
      assert.deepStrictEqual(
        flow.map((entry) => entry.role),
        users.flatMap(() => ["user", "assistant"]),
        `${id}: the conversation alternates user and assistant, one pair per turn`,
      );
      assert.deepStrictEqual(
        document.execution.map((entry) => [entry.seq, entry.turn, entry.name, entry.outcome]),
        users.map((_, i) => [i + 1, i + 1, "save_name", "stay"]),
        `${id}: one save_name call per stored turn`,
      );

      // Every answered turn exactly once; no refused one; nothing that was not answered.
      for (const message of expected) {
        assert.equal(
          users.filter((u) => u === message).length,
          1,
          `${id}: answered message ${JSON.stringify(message)} is stored exactly once`,
        );
      }
      for (const refused of mine.filter((s) => s.status !== 200)) {
        assert.ok(
          !users.includes(refused.message),
          `${id}: client ${refused.client} turn ${refused.turn} got ${refused.status} but is stored`,
        );
      }
      assert.equal(
        users.length,
        expected.length,
        `${id}: stored ${users.length} user messages, ${expected.length} were answered`,
      );

      // In each client's own order.
      for (let c = 0; c < CLIENTS; c++) {
        const ordered = mine.filter((s) => s.client === c && s.status === 200).map((s) => s.message);
        assert.deepStrictEqual(
          users.filter((u) => ordered.includes(u)),
          ordered,
          `${id}: client ${c}'s answered turns are stored in the order it sent them`,
        );
      }

      // Both processes wrote this session, so the turns really interleaved across processes.
      const writers = new Set(mine.filter((s) => s.status === 200).map((s) => s.server));
      assert.deepStrictEqual([...writers].sort(), ["A", "B"], `${id}: answered turns came from both servers`);
    }
  } finally {
    await store.close();
  }
}

test("two server processes on one SQLite file: every turn is answered 200 or 409 session_conflict, every answered turn is stored once and in its client's order, and no refused one is stored", {
  timeout: 60_000,
}, async (t) => {
  const dir = await tempDir("two-process");
  const sqlitePath = join(dir.path, "sessions.sqlite");
  const servers: Server[] = [];
  try {
    // One after the other, so both have opened the file before any client talks to them.
    for (const name of ["A", "B"])
      servers.push(await startChildServer({ SQLITE_PATH: sqlitePath, FLOW_MODEL: "scripted" }, name));
    await playAndCheck(t, servers, sqlitePath);
  } finally {
    for (const server of servers) await kill(server);
    dir.remove();
  }
});

/**
 * A proxy in front of the fake OpenAI server that holds each request 2–12 ms, so a turn spends real
 * time between reading the session and saving it and the two processes' turns overlap far more often.
 */
async function slowProxy(targetBaseURL: string): Promise<{ baseURL: string; close: () => Promise<void> }> {
  const target = new URL(targetBaseURL);
  let held = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      setTimeout(
        () => {
          const forward = http.request(
            { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
            (answer) => {
              res.writeHead(answer.statusCode ?? 502, answer.headers);
              answer.pipe(res);
            },
          );
          forward.on("error", () => res.destroy());
          forward.end(Buffer.concat(chunks));
        },
        2 + (held++ % 11),
      );
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return {
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}${target.pathname}`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

test("with a slow model, so that turns of the two processes overlap, every turn is still answered 200 or 409 session_conflict and every answered turn is stored once and in order", {
  timeout: 60_000,
}, async (t) => {
  const dir = await tempDir("two-process-slow");
  const sqlitePath = join(dir.path, "sessions.sqlite");
  const fake = await startFakeOpenAI(Object.values(basicFlowScripts));
  const proxy = await slowProxy(fake.baseURL);
  const servers: Server[] = [];
  try {
    const env = {
      SQLITE_PATH: sqlitePath,
      FLOW_MODEL: "live",
      OPENAI_API_KEY: "k",
      OPENAI_BASE_URL: proxy.baseURL,
      OPENAI_MAX_RETRIES: "0",
      OPENAI_TIMEOUT_MS: "10000",
    };
    for (const name of ["A", "B"]) servers.push(await startChildServer(env, name));
    await playAndCheck(t, servers, sqlitePath);
    t.diagnostic(`${fake.requests.length} model calls`);
  } finally {
    for (const server of servers) await kill(server);
    await proxy.close();
    await fake.close();
    dir.remove();
  }
});

test("a reader on its own connection, as the scenario runner with FLOW_BASE_URL is, never sees a half-applied turn while a server process writes the session", {
  timeout: 60_000,
}, async (t) => {
  const dir = await tempDir("two-process-reader");
  const sqlitePath = join(dir.path, "sessions.sqlite");
  let server: Server | undefined;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  let store: SqliteSessionStore | undefined;
  try {
    server = await startChildServer({ SQLITE_PATH: sqlitePath, FLOW_MODEL: "scripted" }, "A");
    const first = await post(server.url, agent, { flow: "BasicFlow", message: "Jane Doe" });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const id = first.body["session"] as string;
    store = new SqliteSessionStore(sqlitePath, { readonly: true });
    const reader = store;

    let writing = true;
    let reads = 0;
    const torn: string[] = [];
    const reading = (async () => {
      while (writing) {
        // A burst of reads, then a yield so the writers' requests go on.
        for (let i = 0; i < 50; i++) {
          const document = await reader.fetchAll(id);
          reads++;
          assert.ok(document);
          const users = (document.memory[FLOW_MEMORY] ?? []).filter((entry) => entry.role === "user").length;
          if (users !== document.turns || document.execution.length !== document.turns) {
            torn.push(
              `turns ${document.turns}, user messages ${users}, execution entries ${document.execution.length}`,
            );
          }
        }
        await new Promise<void>((done) => setImmediate(done));
      }
    })();
    const running = server;
    const writers = Array.from({ length: 4 }, async (_, w) => {
      for (let n = 0; n < 40; n++) {
        const answer = await post(running.url, agent, { message: placeholder(w, n) }, id);
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
      }
    });
    try {
      await Promise.all(writers);
    } finally {
      writing = false;
      await reading;
    }
    t.diagnostic(`${reads} reads during 160 turns, ${torn.length} saw a half-applied turn`);
    assert.deepStrictEqual(
      torn.slice(0, 5),
      [],
      `${torn.length} of ${reads} reads saw a document whose head and appended rows are of different turns`,
    );
  } finally {
    await store?.close();
    agent.destroy();
    await kill(server);
    dir.remove();
  }
});
