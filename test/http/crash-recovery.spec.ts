import assert from "node:assert/strict";
import http from "node:http";
import { join } from "node:path";
import { test } from "node:test";
import Database from "better-sqlite3";
import { FLOW_MEMORY } from "../../src/engine/session-document.ts";
import { SqliteSessionStore } from "../../src/store/sqlite/sqlite-session-store.ts";
import { killChildServer as kill, startChildServer, type ChildServer as Server } from "../support/child-server.ts";
import { tempDir } from "../support/temp-path.ts";

const ROUNDS = 6;
const WORKERS = 4;
/** save_name accepts at most 100 characters, so a session's unique placeholders stay below that. */
const TURNS_PER_SESSION = 40;

/** A small seeded generator, so a failure names the seed that produced its kill moments. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The n-th turn's message of a session: "John Doe" with n+1 spaces. The name step normalises the
 * spaces, so every one is the placeholder and stays on NameStep, yet each is a distinct message.
 */
function placeholder(n: number): string {
  return `John${" ".repeat(n + 1)}Doe`;
}

/** Starts the BasicFlow fixture's server as a child process on `sqlitePath`. */
function startServer(sqlitePath: string): Promise<Server> {
  return startChildServer({ SQLITE_PATH: sqlitePath, FLOW_MODEL: "scripted" });
}

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
          try {
            done({
              status: res.statusCode ?? 0,
              body: JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, any>,
            });
          } catch (error) {
            fail(error);
          }
        });
      },
    );
    req.on("error", fail);
    req.end(JSON.stringify(body));
  });
}

/** What one client knows of one session: each message it sent, and whether it got the answer. */
interface SessionLog {
  id: string | undefined;
  sent: { message: string; answered: boolean }[];
}

test("sessions survive SIGKILLs at random moments: every answered turn is stored once, in order, and no turn is half-stored", {
  timeout: 60_000,
}, async (t) => {
  // TEST_SEED=<seed> replays the kill moments of a failed run; every failure message names its seed.
  const given = process.env["TEST_SEED"];
  assert.ok(given === undefined || /^\d+$/.test(given), `TEST_SEED=${given} is not a whole number`);
  const seed = given === undefined ? Date.now() % 1_000_000 : Number(given);
  t.diagnostic(`seed ${seed} (replay with TEST_SEED=${seed})`);
  const next = random(seed);
  const dir = await tempDir("crash-recovery");
  const sqlitePath = join(dir.path, "sessions.sqlite");
  let server: Server | undefined;
  const sessions: SessionLog[] = [];
  /** The session each worker is playing now. */
  const current: SessionLog[] = [];
  const unexpected: string[] = [];
  let answered = 0;
  let unanswered = 0;
  let inFlightAtKills = 0;
  let unansweredButStored = 0;

  try {
    for (let round = 1; round <= ROUNDS; round++) {
      server = await startServer(sqlitePath);
      const running = server;
      const agent = new http.Agent({ keepAlive: true });
      // Kill once this round has had a random number of answers, a random moment later, with turns in flight.
      const killAfter = 3 + Math.floor(next() * 80);
      const killDelay = Math.floor(next() * 4);
      let answeredThisRound = 0;
      let inFlight = 0;
      let killing: Promise<void> | undefined;
      const killNow = () => {
        killing ??= new Promise<void>((done) => setTimeout(done, killDelay)).then(() => {
          inFlightAtKills += inFlight;
          return kill(running);
        });
      };

      const worker = async (slot: number) => {
        // Each worker keeps its own session across rounds, and moves to a new one when it is long.
        for (;;) {
          let log = current[slot];
          // A session whose first turn went unanswered has no id the client knows: start another.
          if (!log || log.sent.length >= TURNS_PER_SESSION || log.id === undefined) {
            log = { id: undefined, sent: [] };
            sessions.push(log);
            current[slot] = log;
          }
          const entry = { message: placeholder(log.sent.length), answered: false };
          log.sent.push(entry);
          inFlight++;
          let answer: Answer;
          try {
            answer = await post(
              running.url,
              agent,
              log.id ? { message: entry.message } : { flow: "BasicFlow", message: entry.message },
              log.id,
            );
          } catch (error) {
            // The child is gone: this turn may or may not have been stored.
            inFlight--;
            unanswered++;
            if (killing === undefined)
              unexpected.push(`round ${round}: a request failed before the kill: ${String(error)}`);
            return;
          }
          inFlight--;
          if (answer.status !== 200) {
            unexpected.push(`round ${round}: ${answer.status} ${JSON.stringify(answer.body)}`);
            return;
          }
          entry.answered = true;
          answered++;
          log.id ??= answer.body["session"] as string;
          assert.equal(answer.body["session"], log.id);
          assert.equal(answer.body["currentStep"], "NameStep");
          if (++answeredThisRound >= killAfter) killNow();
        }
      };
      await Promise.all(Array.from({ length: WORKERS }, (_, slot) => worker(slot)));
      killNow();
      await killing;
      agent.destroy();
      assert.deepStrictEqual(unexpected, [], `seed ${seed}`);
    }

    // After the last kill the file still serves: every session with a known id takes another turn.
    server = await startServer(sqlitePath);
    const agent = new http.Agent({ keepAlive: true });
    for (const log of sessions.filter((s) => s.id !== undefined)) {
      const entry = { message: placeholder(log.sent.length), answered: false };
      log.sent.push(entry);
      const answer = await post(server.url, agent, { message: entry.message }, log.id);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      entry.answered = true;
      answered++;
    }
    agent.destroy();
    await kill(server);
  } finally {
    await kill(server);
  }

  try {
    t.diagnostic(
      `${answered} answered turns, ${unanswered} unanswered, ${inFlightAtKills} in flight at the kills, ${sessions.length} sessions`,
    );
    assert.ok(inFlightAtKills > 0, `seed ${seed}: no kill hit a request in flight`);
    assert.ok(unanswered > 0, `seed ${seed}: no turn was cut off by a kill`);

    const db = new Database(sqlitePath, { readonly: true });
    const storedIds = (db.prepare("SELECT id FROM sessions").all() as { id: string }[]).map((row) => row.id);
    db.close();
    const known = sessions.filter((log) => log.id !== undefined);
    // Sessions the client never learnt the id of: only unanswered first turns can have made them.
    const unknownStarts = sessions.filter((log) => log.id === undefined && log.sent.length > 0).length;
    const unknownStored = storedIds.filter((id) => !known.some((log) => log.id === id));
    assert.ok(
      unknownStored.length <= unknownStarts,
      `${unknownStored.length} unknown sessions stored, ${unknownStarts} unanswered starts`,
    );
    for (const log of known) assert.ok(storedIds.includes(log.id!), `session ${log.id} is stored`);

    const store = new SqliteSessionStore(sqlitePath);
    try {
      for (const id of storedIds) {
        const document = await store.fetchAll(id);
        assert.ok(document, id);
        const flow = document.memory[FLOW_MEMORY] ?? [];
        const users = flow.filter((entry) => entry.role === "user").map((entry) => entry.content);
        // Never half-stored: one user message, one answer and one save_name call per turn.
        assert.equal(document.turns, users.length, `${id}: turns vs user messages`);
        assert.deepStrictEqual(
          flow.map((entry) => entry.role),
          users.flatMap(() => ["user", "assistant"]),
          `${id}: the conversation alternates user and assistant`,
        );
        assert.deepStrictEqual(
          document.execution.map((entry) => [entry.turn, entry.name, entry.outcome]),
          users.map((_, i) => [i + 1, "save_name", "stay"]),
          `${id}: one save_name call per turn`,
        );
        assert.equal(document.flow.currentStep, "NameStep");

        const log = known.find((candidate) => candidate.id === id);
        if (!log) continue;
        // Answered turns exactly once, in the order sent; an unanswered one at most once, in its place.
        const positions = users.map((message) => log.sent.findIndex((entry) => entry.message === message));
        assert.ok(!positions.includes(-1), `${id}: a stored message was never sent`);
        assert.deepStrictEqual(
          positions,
          [...positions].sort((a, b) => a - b),
          `${id}: messages out of order`,
        );
        assert.equal(new Set(positions).size, positions.length, `${id}: a message is stored twice`);
        unansweredButStored += positions.filter((i) => !log.sent[i]!.answered).length;
        assert.deepStrictEqual(
          users.filter((message) => log.sent.find((entry) => entry.message === message)!.answered),
          log.sent.filter((entry) => entry.answered).map((entry) => entry.message),
          `seed ${seed}, ${id}: the answered turns as stored`,
        );
      }
      t.diagnostic(
        `${unansweredButStored} unanswered turns were stored whole, ${unknownStored.length} sessions of unanswered starts`,
      );
    } finally {
      await store.close();
    }
  } finally {
    dir.remove();
  }
});
