import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import http from "node:http";
import net from "node:net";
import { join, resolve } from "node:path";
import { test } from "node:test";
import Database from "better-sqlite3";
import type { SessionDocument } from "../../src/engine/session-document.ts";
import { basicFlowEntry } from "../fixtures/flows/index.ts";
import { clockFlows } from "../support/clock-flow.ts";
import { jsonClient, type JsonAnswer } from "../support/json-client.ts";
import { tempDir } from "../support/temp-path.ts";
import { startTestServer, type TestServer } from "../support/test-server.ts";

// Bad input at the HTTP edge, through a real port (raw sockets where a client library would refuse
// to send it): none is answered 500, none hangs, none crashes the server, none changes a session.

const ROOT = resolve(import.meta.dirname, "..", "..");
const TWO_MB = 2 * 1024 * 1024;
/** The longest a raw exchange may take before it counts as a hang (a guard, not a timing assertion). */
const HANG_GUARD_MS = 10_000;
const NO_HANG = { timeout: 30_000 };

interface Target {
  server: TestServer;
  client: ReturnType<typeof jsonClient>;
  port: number;
  /** What the app logged: every 500 is logged, so this must stay empty. */
  logged: string[];
}

async function withServer(body: (target: Target) => Promise<void>): Promise<void> {
  const logged: string[] = [];
  const server = await startTestServer({
    flows: [basicFlowEntry, ...clockFlows],
    env: { FLOW_MODEL: "scripted" },
    log: (message) => logged.push(message),
  });
  const client = jsonClient(server.url);
  try {
    await body({ server, client, port: Number(new URL(server.url).port), logged });
    assert.deepStrictEqual(logged, [], "nothing was logged as a server failure");
  } finally {
    client.close();
    await server.close();
  }
}

interface RawOutcome {
  /** Everything the server sent back. */
  text: string;
  /** A socket error the client saw (EPIPE, ECONNRESET once the server has closed). */
  error: string | undefined;
  /** True when the server neither answered-and-closed nor closed within HANG_GUARD_MS. */
  hung: boolean;
}

/**
 * Opens a raw TCP connection, lets `write` send whatever it likes, and resolves when the connection
 * is closed (by the server, or by `write`), or reports a hang after HANG_GUARD_MS.
 */
function rawExchange(port: number, write: (socket: net.Socket) => void): Promise<RawOutcome> {
  return new Promise((done) => {
    const socket = net.connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    let error: string | undefined;
    let hung = false;
    const guard = setTimeout(() => {
      hung = true;
      socket.destroy();
    }, HANG_GUARD_MS);
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", (e: NodeJS.ErrnoException) => (error ??= e.code ?? e.message));
    socket.on("close", () => {
      clearTimeout(guard);
      done({ text: Buffer.concat(chunks).toString("utf8"), error, hung });
    });
    socket.on("connect", () => write(socket));
  });
}

/** The status of every response in a raw exchange. */
function statuses(text: string): number[] {
  return [...text.matchAll(/^HTTP\/1\.1 (\d{3}) /gm)].map((match) => Number(match[1]));
}

/** Writes `body` in 64 KiB pieces as fast as the socket takes them, stopping once it is torn down. */
function writeAll(socket: net.Socket, body: Buffer): void {
  let offset = 0;
  const next = () => {
    while (offset < body.length) {
      if (socket.destroyed || !socket.writable) return;
      const chunk = body.subarray(offset, offset + 64 * 1024);
      offset += chunk.length;
      if (!socket.write(chunk)) {
        socket.once("drain", next);
        return;
      }
    }
  };
  next();
}

function head(lines: string[]): string {
  return `${lines.join("\r\n")}\r\n\r\n`;
}

async function startSession(target: Target, flow = "BasicFlow", message = "John Doe"): Promise<string> {
  const answer = await target.client.post("/ai/chat", { flow, message });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body["session"] as string;
}

function sessionCount(target: Target): number {
  const db = new Database(target.server.sqlitePath, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare("SELECT COUNT(*) AS n FROM sessions").get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** Runs `action` and checks that the session and the number of sessions are as before. */
async function unchanged(target: Target, id: string, action: () => Promise<void>): Promise<void> {
  const before: SessionDocument | undefined = await target.server.app.engine.fetchAll(id);
  assert.ok(before, `session ${id} is stored before`);
  const count = sessionCount(target);
  await action();
  assert.deepStrictEqual(await target.server.app.engine.fetchAll(id), before, "the stored session did not change");
  assert.equal(sessionCount(target), count, "no session was created");
}

/** The server still answers a new connection: the flows, and a turn. */
async function stillServes(target: Target): Promise<void> {
  const fresh = jsonClient(target.server.url);
  try {
    const flows = await fresh.get("/ai/flows");
    assert.equal(flows.status, 200, JSON.stringify(flows.body));
    const turn = await fresh.post("/ai/chat", { flow: "BasicFlow", message: "John Wick" });
    assert.equal(turn.status, 200, JSON.stringify(turn.body));
    assert.equal(turn.body["currentStep"], "WeatherStep");
  } finally {
    fresh.close();
  }
}

function assertError(answer: JsonAnswer, status: number, code: string): void {
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  assert.equal(answer.body["success"], false);
  assert.equal((answer.body["error"] as { code?: string } | undefined)?.code, code, JSON.stringify(answer.body));
}

test(
  "a Content-Length of 10 followed by 2 MB is refused (4xx) or the connection is closed: never a 500, never a hang, and the session is unchanged",
  NO_HANG,
  async () => {
    await withServer(async (target) => {
      const id = await startSession(target);
      await unchanged(target, id, async () => {
        const body = Buffer.alloc(TWO_MB, "x");
        body.write('{"message":"');
        const outcome = await rawExchange(target.port, (socket) => {
          socket.write(
            head([
              "POST /ai/chat HTTP/1.1",
              "Host: 127.0.0.1",
              "Content-Type: application/json",
              `CHAT_SESSION_ID: ${id}`,
              "Content-Length: 10",
            ]),
          );
          writeAll(socket, body);
        });
        assert.equal(
          outcome.hung,
          false,
          `the server neither answered nor closed the connection; it sent ${JSON.stringify(outcome.text.slice(0, 300))}`,
        );
        for (const status of statuses(outcome.text)) {
          assert.ok(status >= 400 && status < 500, `answered ${status}: ${outcome.text.slice(0, 500)}`);
        }
        assert.ok(
          statuses(outcome.text).length > 0 ||
            outcome.error === undefined ||
            ["EPIPE", "ECONNRESET"].includes(outcome.error),
          `no answer and the error ${String(outcome.error)}`,
        );
      });
      await stillServes(target);
    });
  },
);

test(
  "a Content-Length larger than the body, then the client closes the connection: the server does not crash, answers the next connection, and the session is unchanged",
  NO_HANG,
  async () => {
    await withServer(async (target) => {
      const id = await startSession(target);
      const partial = (close: (socket: net.Socket) => void) =>
        rawExchange(target.port, (socket) => {
          socket.write(
            head([
              "POST /ai/chat HTTP/1.1",
              "Host: 127.0.0.1",
              "Content-Type: application/json",
              `CHAT_SESSION_ID: ${id}`,
              "Content-Length: 100",
            ]),
          );
          // 24 of the 100 bytes promised, once they are on their way: then the client goes away.
          socket.write('{"message":"John Wick"}\n', () => close(socket));
        });
      // Closed at once, both ways.
      await unchanged(target, id, async () => {
        const destroyed = await partial((socket) => socket.destroy());
        assert.equal(destroyed.hung, false);
      });
      await stillServes(target);
      // Half-closed: the client says it has sent everything and waits for an answer.
      await unchanged(target, id, async () => {
        const halfClosed = await partial((socket) => socket.end());
        assert.equal(
          halfClosed.hung,
          false,
          `the server waits forever for the rest of a body that will never come; it sent ${JSON.stringify(halfClosed.text)}`,
        );
        for (const status of statuses(halfClosed.text)) assert.ok(status >= 400 && status < 500, halfClosed.text);
      });
      await stillServes(target);
    });
  },
);

test("a body that is valid JSON but not an object (a string, a number, null, true, an array) is answered 400 invalid_request and changes nothing", async () => {
  await withServer(async (target) => {
    const id = await startSession(target);
    const send = (text: string, session?: string) =>
      new Promise<JsonAnswer>((done, fail) => {
        const headers: Record<string, string> = {
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(text)),
        };
        if (session) headers["CHAT_SESSION_ID"] = session;
        const req = http.request(new URL("/ai/chat", target.server.url), { method: "POST", headers }, (res) => {
          let body = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => (body += chunk));
          res.on("end", () =>
            done({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: JSON.parse(body) as Record<string, unknown>,
            }),
          );
        });
        req.on("error", fail);
        req.end(text);
      });
    await unchanged(target, id, async () => {
      for (const text of ['"John Wick"', "42", "-0.5e3", "null", "true", "false", '["John Wick"]', '""']) {
        for (const session of [undefined, id]) {
          const answer = await send(text, session);
          assertError(answer, 400, "invalid_request");
          assert.match((answer.body["error"] as { message: string }).message, /must be a JSON object/, text);
        }
      }
    });
  });
});

test("a body whose bytes are not UTF-8 (a surrogate as raw bytes, a stray 0xFF) is answered 400 invalid_json saying so, changes nothing, and the connection serves on", async () => {
  await withServer(async (target) => {
    const id = await startSession(target);
    await unchanged(target, id, async () => {
      for (const bytes of [Buffer.from([0xed, 0xa0, 0x80]), Buffer.from([0xff]), Buffer.from([0xc3])]) {
        const body = Buffer.concat([Buffer.from('{"message":"John'), bytes, Buffer.from(' Wick"}')]);
        const request = head([
          "POST /ai/chat HTTP/1.1",
          "Host: 127.0.0.1",
          "Content-Type: application/json",
          `Content-Length: ${body.length}`,
          `CHAT_SESSION_ID: ${id}`,
        ]);
        // Then a good request on the same connection: the refused body was read whole, so the connection is still in step.
        const next = head(["GET /ai/flows HTTP/1.1", "Host: 127.0.0.1", "Connection: close"]);
        const outcome = await rawExchange(target.port, (socket) =>
          socket.end(Buffer.concat([Buffer.from(request), body, Buffer.from(next)])),
        );
        assert.equal(outcome.hung, false);
        // A body carries no line break after it, so the next answer's status line follows it on the same line.
        assert.deepEqual(
          [...outcome.text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((match) => Number(match[1])),
          [400, 200],
          outcome.text,
        );
        assert.match(outcome.text, /"code":"invalid_json","message":"The body is not valid UTF-8/);
      }
    });
  });
});

test("a session id of another flow is answered 400 invalid_request, and neither session changes", async () => {
  await withServer(async (target) => {
    const basic = await startSession(target);
    const clock = await startSession(target, "ClockFlow", "What day is it?");
    await unchanged(target, basic, () =>
      unchanged(target, clock, async () => {
        const cases: [string, string][] = [
          [basic, "ClockFlow"],
          [clock, "BasicFlow"],
        ];
        for (const [session, flow] of cases) {
          const viaHeader = await target.client.post(
            "/ai/chat",
            { flow, message: "John Wick" },
            { CHAT_SESSION_ID: session },
          );
          assertError(viaHeader, 400, "invalid_request");
          assert.match((viaHeader.body["error"] as { message: string }).message, /belongs to \w+Flow, not \w+Flow/);
          const viaBody = await target.client.post("/ai/chat", { flow, session, message: "John Wick" });
          assertError(viaBody, 400, "invalid_request");
        }
      }),
    );
  });
});

test(
  "20 concurrent requests to one session over 20 connections are all answered 200 and applied one after another, each message once",
  NO_HANG,
  async () => {
    await withServer(async (target) => {
      const id = await startSession(target, "BasicFlow", "Jane Doe");
      const messages = Array.from({ length: 20 }, (_, i) => `John${" ".repeat(i + 1)}Doe`);
      const agents = messages.map(() => new http.Agent({ keepAlive: false }));
      try {
        const answers = await Promise.all(
          messages.map(
            (message, i) =>
              new Promise<JsonAnswer>((done, fail) => {
                const req = http.request(
                  new URL("/ai/chat", target.server.url),
                  {
                    method: "POST",
                    agent: agents[i]!,
                    headers: { "content-type": "application/json", CHAT_SESSION_ID: id },
                  },
                  (res) => {
                    let body = "";
                    res.setEncoding("utf8");
                    res.on("data", (chunk: string) => (body += chunk));
                    res.on("end", () =>
                      done({
                        status: res.statusCode ?? 0,
                        headers: res.headers,
                        body: JSON.parse(body) as Record<string, unknown>,
                      }),
                    );
                  },
                );
                req.on("error", fail);
                req.end(JSON.stringify({ message }));
              }),
          ),
        );
        assert.deepStrictEqual(
          answers.map((answer) => answer.status),
          messages.map(() => 200),
          JSON.stringify(answers.filter((answer) => answer.status !== 200).map((answer) => answer.body)),
        );
        for (const answer of answers) assert.equal(answer.body["session"], id);
      } finally {
        for (const agent of agents) agent.destroy();
      }
      const document = await target.server.app.engine.fetchAll(id);
      assert.ok(document);
      assert.equal(document.turns, 21);
      const flow = document.memory["flow"] ?? [];
      const users = flow.filter((entry) => entry.role === "user").map((entry) => entry.content);
      assert.equal(users[0], "Jane Doe");
      assert.deepStrictEqual([...users.slice(1)].sort(), [...messages].sort(), "each message is stored exactly once");
      assert.deepStrictEqual(
        flow.map((entry) => entry.role),
        users.flatMap(() => ["user", "assistant"]),
        "turns did not interleave",
      );
      assert.deepStrictEqual(
        document.execution.map((entry) => [entry.seq, entry.turn, entry.name, entry.outcome]),
        users.map((_, i) => [i + 1, i + 1, "save_name", "stay"]),
      );
      // A turn's answer and its tool call belong to its own message, whatever the order of arrival.
      for (let i = 0; i < users.length; i++) {
        const quoted = /^Sorry, "(.+?)" looks like a placeholder/.exec(flow[2 * i + 1]!.content)?.[1];
        assert.equal(quoted, users[i]!.trim().replace(/\s+/g, " "), `turn ${i + 1}'s answer is about its own message`);
      }
    });
  },
);

test("every other bad request of the issue through the port is answered with its 4xx code, never 500, and changes no session", async () => {
  await withServer(async (target) => {
    const id = await startSession(target);
    const done = await startSession(target, "BasicFlow", "John Wick");
    for (const message of ["LA, NYC", "1600 SW Murray Blvd, Beaverton, OR 97006"]) {
      assert.equal((await target.client.post("/ai/chat", { message }, { CHAT_SESSION_ID: done })).status, 200);
    }
    const raw = (text: string, headers: Record<string, string | string[]>) =>
      new Promise<JsonAnswer>((resolveAnswer, fail) => {
        const req = http.request(new URL("/ai/chat", target.server.url), { method: "POST", headers }, (res) => {
          let body = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => (body += chunk));
          res.on("end", () =>
            resolveAnswer({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: JSON.parse(body) as Record<string, unknown>,
            }),
          );
        });
        req.on("error", fail);
        req.end(text);
      });
    const json = { "content-type": "application/json" };
    const cases: [string, () => Promise<JsonAnswer>, number, string][] = [
      ["malformed JSON", () => raw('{"message": "John Wick"', { ...json, CHAT_SESSION_ID: id }), 400, "invalid_json"],
      [
        "text/plain",
        () => raw('{"message":"John Wick"}', { "content-type": "text/plain", CHAT_SESSION_ID: id }),
        415,
        "unsupported_media_type",
      ],
      ["no content type", () => raw('{"message":"John Wick"}', { CHAT_SESSION_ID: id }), 415, "unsupported_media_type"],
      ["no message", () => target.client.post("/ai/chat", { session: id }), 400, "invalid_request"],
      [
        "a number as message",
        () => target.client.post("/ai/chat", { message: 7 }, { CHAT_SESSION_ID: id }),
        400,
        "invalid_request",
      ],
      [
        "an object as message",
        () => target.client.post("/ai/chat", { message: { text: "John Wick" } }, { CHAT_SESSION_ID: id }),
        400,
        "invalid_request",
      ],
      [
        "an overlong message",
        () => target.client.post("/ai/chat", { message: "x".repeat(8001) }, { CHAT_SESSION_ID: id }),
        400,
        "invalid_request",
      ],
      [
        "an unknown key",
        () => target.client.post("/ai/chat", { message: "John Wick", __proto__x: 1 }, { CHAT_SESSION_ID: id }),
        400,
        "invalid_request",
      ],
      [
        "an unknown flow",
        () => target.client.post("/ai/chat", { flow: "NoSuchFlow", message: "John Wick" }),
        404,
        "unknown_flow",
      ],
      [
        "an unknown session id",
        () =>
          target.client.post(
            "/ai/chat",
            { message: "John Wick" },
            { CHAT_SESSION_ID: "00000000-0000-4000-8000-000000000000" },
          ),
        404,
        "session_not_found",
      ],
      [
        "a malformed session id",
        () =>
          target.client.post(
            "/ai/chat",
            { message: "John Wick" },
            { CHAT_SESSION_ID: `${id}'; DROP TABLE sessions; --` },
          ),
        400,
        "invalid_request",
      ],
      [
        "two session headers",
        () => raw('{"message":"John Wick"}', { ...json, CHAT_SESSION_ID: [id, done] }),
        400,
        "invalid_request",
      ],
      [
        "a message to a completed session",
        () => target.client.post("/ai/chat", { message: "John Wick" }, { CHAT_SESSION_ID: done }),
        409,
        "flow_completed",
      ],
    ];
    for (const session of [id, done]) {
      await unchanged(target, session, async () => {
        for (const [name, send, status, code] of cases) {
          const answer = await send();
          assert.equal(answer.status, status, `${name}: ${JSON.stringify(answer.body)}`);
          assert.equal((answer.body["error"] as { code?: string } | undefined)?.code, code, name);
        }
      });
    }
  });
});

test(
  "a request whose target is not a URL (POST //[) is answered 4xx and the server process keeps serving",
  NO_HANG,
  async () => {
    // A child process, so that a crash is seen as the server exiting rather than taking this runner down.
    const dir = await tempDir("bad-input");
    const child = spawn(process.execPath, ["--import", "tsx", "test/support/serve-basic-flow.ts"], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: "0",
        HOST: "127.0.0.1",
        SQLITE_PATH: join(dir.path, "sessions.sqlite"),
        FLOW_MODEL: "scripted",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise<void>((done) => child.once("exit", () => done()));
    let output = "";
    try {
      const url = await new Promise<string>((ready, fail) => {
        child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
          output += chunk;
          const found = /flowcheck: serving (http:\/\/127\.0\.0\.1:\d+) /.exec(output)?.[1];
          if (found) ready(found);
        });
        child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
        child.once("exit", (code, signal) =>
          fail(new Error(`the server exited (${code ?? signal}) before listening:\n${output}`)),
        );
      });
      const port = Number(new URL(url).port);
      for (const requestTarget of ["//[", "http://[::1/ai/chat", "//%"]) {
        const outcome = await rawExchange(port, (socket) => {
          socket.write(
            head([
              `POST ${requestTarget} HTTP/1.1`,
              "Host: 127.0.0.1",
              "Content-Type: application/json",
              "Content-Length: 2",
              "Connection: close",
            ]) + "{}",
          );
        });
        assert.equal(outcome.hung, false, requestTarget);
        const answered = statuses(outcome.text);
        assert.equal(
          answered.length,
          1,
          `${requestTarget}: expected one answer, got ${JSON.stringify(outcome.text)} (${String(outcome.error)}); server output:\n${output}`,
        );
        assert.ok(answered[0]! >= 400 && answered[0]! < 500, `${requestTarget}: ${outcome.text}`);
        assert.equal(child.exitCode, null, `the server exited after ${requestTarget}:\n${output}`);
      }
      const client = jsonClient(url);
      try {
        assert.equal((await client.get("/ai/flows")).status, 200);
      } finally {
        client.close();
      }
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGKILL");
        await exited;
      }
      dir.remove();
    }
  },
);
