import assert from "node:assert/strict";
import http from "node:http";
import { test } from "node:test";
import { basicFlowEntry } from "../fixtures/flows/index.ts";
import { startTestServer, type TestServer } from "../support/test-server.ts";

const TWO_MB = 2 * 1024 * 1024;
const CHUNK = 64 * 1024;
/** A safety net so a server that waits for the whole body fails the test instead of hanging it. */
const NO_HANG = { timeout: 20_000 };

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  reusedSocket: boolean;
  localPort: number | undefined;
}

interface Target {
  server: TestServer;
  agent: http.Agent;
  /** What the server finished sending, as seen from inside it: one status per response. */
  sent: number[];
}

/** A server on 127.0.0.1 and a keep-alive agent with one socket, both closed after `body`. */
async function withServer(body: (target: Target) => Promise<void>): Promise<void> {
  const server = await startTestServer({ flows: [basicFlowEntry] });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const sent: number[] = [];
  server.server.server.on("request", (_req: http.IncomingMessage, res: http.ServerResponse) => {
    res.on("finish", () => sent.push(res.statusCode));
  });
  try {
    await body({ server, agent, sent });
  } finally {
    agent.destroy();
    await server.close();
  }
}

function send(
  target: Target,
  options: { method: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<Answer> {
  const url = new URL(target.server.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: options.method,
        path: options.path,
        headers: options.headers ?? {},
        agent: target.agent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString("utf8"),
            reusedSocket: req.reusedSocket,
            localPort: res.socket?.localPort,
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

function chat(target: Target, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  return send(target, {
    method: "POST",
    path: "/ai/chat",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

function parsed(answer: Answer): Record<string, any> {
  assert.match(String(answer.headers["content-type"]), /^application\/json/, answer.body);
  return JSON.parse(answer.body) as Record<string, any>;
}

interface LargeOutcome {
  response?: { status: number; body: string };
  error?: string;
  /** Bytes the client handed to the socket before it stopped. */
  written: number;
}

/**
 * Posts a 2 MB JSON body in 64 KiB writes, with a Content-Length or chunked, and stops writing as soon
 * as the request is torn down. A 413 while the client is still writing may reach it as the response,
 * or, when the server's close overtakes the client's writes, as EPIPE / ECONNRESET.
 */
function postLarge(target: Target, chunked: boolean): Promise<LargeOutcome> {
  const url = new URL(target.server.url);
  const prefix = '{"flow":"BasicFlow","message":"';
  const suffix = '"}';
  const body = Buffer.from(prefix + "x".repeat(TWO_MB - prefix.length - suffix.length) + suffix);
  assert.equal(body.length, TWO_MB);
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (!chunked) headers["content-length"] = String(body.length);
  return new Promise((resolve) => {
    const outcome: LargeOutcome = { written: 0 };
    let requestClosed = false;
    let responseDone = true;
    const settle = () => {
      if (requestClosed && responseDone) resolve(outcome);
    };
    const req = http.request({
      host: url.hostname,
      port: url.port,
      method: "POST",
      path: "/ai/chat",
      headers,
      agent: target.agent,
    });
    req.on("response", (res) => {
      responseDone = false;
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("close", () => {
        outcome.response = { status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") };
        responseDone = true;
        settle();
      });
    });
    req.on("error", (error: NodeJS.ErrnoException) => {
      outcome.error ??= error.code ?? error.message;
    });
    req.on("close", () => {
      requestClosed = true;
      settle();
    });
    const write = () => {
      while (outcome.written < body.length) {
        if (req.destroyed) return;
        const chunk = body.subarray(outcome.written, outcome.written + CHUNK);
        outcome.written += chunk.length;
        if (!req.write(chunk)) {
          req.once("drain", write);
          return;
        }
      }
      req.end();
    };
    write();
  });
}

function assertTooLarge(outcome: LargeOutcome, sent: number[]): void {
  // Inside the server: exactly one response, a 413, whatever the client managed to read.
  assert.deepStrictEqual(sent, [413]);
  if (outcome.response) {
    assert.equal(outcome.response.status, 413, outcome.response.body);
    const body = JSON.parse(outcome.response.body) as Record<string, any>;
    assert.equal(body["success"], false);
    assert.equal(body["error"]?.code, "body_too_large");
  } else {
    assert.ok(
      outcome.error === "EPIPE" || outcome.error === "ECONNRESET",
      `no response and error ${String(outcome.error)}`,
    );
  }
}

/** Splits an event stream into events on blank lines and reads their `event:` and `data:` lines. */
function parseEventStream(text: string): { event: string; data: string }[] {
  return text
    .split(/\r?\n\r?\n/)
    .filter((block) => block.trim() !== "")
    .map((block) => {
      let event = "message";
      const data: string[] = [];
      for (const line of block.split(/\r?\n/)) {
        if (line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon === -1 ? line : line.slice(0, colon);
        const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "event") event = value;
        else if (field === "data") data.push(value);
      }
      return { event, data: data.join("\n") };
    });
}

test("several turns of a session reuse one keep-alive connection", async () => {
  await withServer(async (target) => {
    const first = await chat(target, { flow: "BasicFlow", message: "John Doe" });
    assert.equal(first.status, 200, first.body);
    assert.equal(first.reusedSocket, false);
    const id = parsed(first)["session"] as string;
    const answers: Answer[] = [];
    for (const message of ["Jane Doe", "John Wick", "LA, NYC"]) {
      answers.push(await chat(target, { message }, { CHAT_SESSION_ID: id }));
    }
    for (const answer of answers) {
      assert.equal(answer.status, 200, answer.body);
      assert.equal(answer.reusedSocket, true);
      assert.equal(answer.localPort, first.localPort);
      assert.equal(answer.headers["chat_session_id"], id);
      assert.equal(answer.headers["connection"], "keep-alive");
    }
    assert.deepStrictEqual(
      answers.map((answer) => parsed(answer)["currentStep"]),
      ["NameStep", "WeatherStep", "AddressStep"],
    );
    assert.equal((await target.server.app.engine.fetchAll(id))?.turns, 4);
  });
});

test("the session header is accepted in any letter case", async () => {
  await withServer(async (target) => {
    const first = await chat(target, { flow: "BasicFlow", message: "John Doe" });
    const id = parsed(first)["session"] as string;
    for (const name of ["chat_session_id", "Chat_Session_Id", "CHAT_SESSION_ID"]) {
      const answer = await chat(target, { message: "Jane Doe" }, { [name]: id });
      assert.equal(answer.status, 200, `${name}: ${answer.body}`);
      assert.equal(parsed(answer)["session"], id);
      assert.equal(answer.headers["chat_session_id"], id);
    }
    assert.equal((await target.server.app.engine.fetchAll(id))?.turns, 4);
  });
});

test("a declared 2 MB body is answered 413 before the client has sent it", NO_HANG, async () => {
  await withServer(async (target) => {
    const url = new URL(target.server.url);
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request({
        host: url.hostname,
        port: url.port,
        method: "POST",
        path: "/ai/chat",
        headers: { "content-type": "application/json", "content-length": String(TWO_MB) },
        agent: target.agent,
      });
      req.on("response", (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
      });
      req.on("error", reject);
      // Only the start of the body: the server must not wait for the rest to refuse it.
      req.write('{"flow":"BasicFlow","message":"');
    });
    assert.equal(answer.status, 413, answer.body);
    assert.equal((JSON.parse(answer.body) as Record<string, any>)["error"]?.code, "body_too_large");
  });
});

test("a chunked body is answered 413 once it passes 1 MiB, without waiting for its end", NO_HANG, async () => {
  await withServer(async (target) => {
    const url = new URL(target.server.url);
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request({
        host: url.hostname,
        port: url.port,
        method: "POST",
        path: "/ai/chat",
        headers: { "content-type": "application/json" },
        agent: target.agent,
      });
      req.on("response", (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
      });
      req.on("error", reject);
      // 1 MiB + 1 KiB and no end: a server that buffers until the end would never answer.
      req.write('{"flow":"BasicFlow","message":"');
      for (let i = 0; i < 16; i++) req.write("x".repeat(CHUNK));
      req.write("x".repeat(1024));
    });
    assert.equal(answer.status, 413, answer.body);
    assert.equal((JSON.parse(answer.body) as Record<string, any>)["error"]?.code, "body_too_large");
  });
});

test("a 2 MB body with a Content-Length is answered 413 body_too_large", NO_HANG, async () => {
  await withServer(async (target) => {
    const outcome = await postLarge(target, false);
    assertTooLarge(outcome, target.sent);
  });
});

test("a 2 MB chunked body without a Content-Length is answered 413 body_too_large", NO_HANG, async () => {
  await withServer(async (target) => {
    const outcome = await postLarge(target, true);
    assertTooLarge(outcome, target.sent);
  });
});

test("after a 413 the server still answers new requests and turns", NO_HANG, async () => {
  await withServer(async (target) => {
    assertTooLarge(await postLarge(target, true), target.sent);
    assertTooLarge(await postLarge(target, false), target.sent.slice(1));
    const flows = await send(target, { method: "GET", path: "/ai/flows" });
    assert.equal(flows.status, 200, flows.body);
    assert.deepStrictEqual(
      (parsed(flows)["flows"] as { name: string }[]).map((flow) => flow.name),
      ["BasicFlow"],
    );
    const turn = await chat(target, { flow: "BasicFlow", message: "John Wick" });
    assert.equal(turn.status, 200, turn.body);
    assert.equal(parsed(turn)["currentStep"], "WeatherStep");
    assert.deepStrictEqual(target.sent, [413, 413, 200, 200]);
  });
});

test("Accept: text/event-stream streams token events whose text is the done event's response", async () => {
  await withServer(async (target) => {
    const first = await chat(target, { flow: "BasicFlow", message: "John Wick" });
    const id = parsed(first)["session"] as string;
    const stream = await send(target, {
      method: "POST",
      path: "/ai/chat",
      headers: { "content-type": "application/json", accept: "text/event-stream", CHAT_SESSION_ID: id },
      body: JSON.stringify({ message: "LA, NYC" }),
    });
    assert.equal(stream.status, 200, stream.body);
    assert.match(String(stream.headers["content-type"]), /^text\/event-stream/);
    assert.equal(stream.headers["chat_session_id"], id);

    const events = parseEventStream(stream.body);
    const done = events.at(-1);
    assert.equal(done?.event, "done");
    const tokens = events.slice(0, -1);
    assert.ok(tokens.length > 1, `expected several token events, got ${tokens.length}`);
    for (const token of tokens) assert.equal(token.event, "token");
    const text = tokens.map((token) => (JSON.parse(token.data) as { text: string }).text).join("");

    const final = JSON.parse(done!.data) as Record<string, unknown>;
    assert.deepStrictEqual(Object.keys(final).sort(), [
      "completed",
      "currentStep",
      "response",
      "runStatus",
      "session",
      "success",
    ]);
    assert.equal(final["response"], text);
    assert.equal(final["session"], id);
    assert.equal(final["success"], true);
    assert.equal(final["currentStep"], "AddressStep");
    assert.equal(final["runStatus"], "running");
    assert.equal(final["completed"], false);

    // The same turn asked for plain JSON answers with the same fields and values.
    const other = parsed(await chat(target, { flow: "BasicFlow", message: "John Wick" }))["session"] as string;
    const plain = parsed(await chat(target, { message: "LA, NYC" }, { CHAT_SESSION_ID: other }));
    assert.deepStrictEqual({ ...plain, session: id }, final);
    assert.equal((await target.server.app.engine.fetchAll(id))?.turns, 2);
  });
});
