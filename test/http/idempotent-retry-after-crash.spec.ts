import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { test } from "node:test";
import Database from "better-sqlite3";
import { FLOW_MEMORY } from "../../src/engine/session-document.ts";
import { SqliteSessionStore } from "../../src/store/sqlite/sqlite-session-store.ts";
import { killChildServer, startChildServer, type ChildServer } from "../support/child-server.ts";
import { EXIT_AFTER_COMMIT, EXIT_AFTER_COMMIT_CODE } from "../support/exit-after-commit.ts";
import { postChat } from "../support/post-chat.ts";
import { tempDir } from "../support/temp-path.ts";

// A server killed between a turn's commit and its answer: the client never heard back, and sends
// the turn again, under the same Idempotency-Key, to the server restarted on the same SQLite file.

/** The stored session's turn count and the user's messages, read on a connection of the test's own. */
async function storedTurns(
  sqlitePath: string,
  session: string,
): Promise<{ turns: number | undefined; said: string[] }> {
  const store = new SqliteSessionStore(sqlitePath, { readonly: true });
  try {
    const document = await store.fetchAll(session);
    const said = (document?.memory[FLOW_MEMORY] ?? [])
      .filter((entry) => entry.role === "user")
      .map((entry) => entry.content);
    return { turns: document?.turns, said };
  } finally {
    await store.close();
  }
}

function sessionIds(sqlitePath: string): string[] {
  const db = new Database(sqlitePath, { readonly: true });
  try {
    return (db.prepare("SELECT id FROM sessions").all() as { id: string }[]).map((row) => row.id);
  } finally {
    db.close();
  }
}

/** The server's hook fired: it exited with the hook's code, not a crash or the test's kill. */
async function exitedAfterCommit(server: ChildServer): Promise<void> {
  assert.deepEqual(await server.exited, { code: EXIT_AFTER_COMMIT_CODE, signal: null }, server.output());
}

interface Crash {
  /** The server armed to exit right after its commit. */
  dying: ChildServer;
  sqlitePath: string;
  /** Starts the server again on the same file, unarmed. */
  restart(): Promise<ChildServer>;
}

/** Runs `body` with a server armed to exit right after its `commit`-th commit, on a SQLite file of its own. */
async function afterCrash(commit: number, body: (crash: Crash) => Promise<void>): Promise<void> {
  const dir = await tempDir("idempotent-crash");
  const sqlitePath = join(dir.path, "sessions.sqlite");
  const servers: ChildServer[] = [];
  const start = async (env: Record<string, string>) => {
    const server = await startChildServer({ SQLITE_PATH: sqlitePath, FLOW_MODEL: "scripted", ...env });
    servers.push(server);
    return server;
  };
  try {
    await body({ dying: await start({ [EXIT_AFTER_COMMIT]: String(commit) }), sqlitePath, restart: () => start({}) });
  } finally {
    for (const server of servers) await killChildServer(server);
    dir.remove();
  }
}

test(
  "a turn whose server exited right after the commit, before answering, is answered after a restart from the stored answer, and applied once",
  { timeout: 60_000 },
  () =>
    afterCrash(2, async ({ dying, sqlitePath, restart }) => {
      const started = await postChat(
        dying.url,
        { flow: "BasicFlow", message: "John Doe" },
        { "Idempotency-Key": randomUUID() },
      );
      assert.equal(started.status, 200, started.text);
      const session = started.headers["chat_session_id"] as string;
      const turn = {
        body: { message: "John Wick" },
        headers: { CHAT_SESSION_ID: session, "Idempotency-Key": randomUUID() },
      };
      await assert.rejects(postChat(dying.url, turn.body, turn.headers), /socket hang up|ECONNRESET/);
      await exitedAfterCommit(dying);
      assert.deepEqual(await storedTurns(sqlitePath, session), { turns: 2, said: ["John Doe", "John Wick"] });

      const retried = await postChat((await restart()).url, turn.body, turn.headers);
      assert.equal(retried.status, 200, retried.text);
      assert.equal(retried.headers["idempotent-replayed"], "true");
      assert.equal(retried.headers["chat_session_id"], session);
      assert.match(String(retried.headers["content-type"]), /^application\/json/);
      const answer = JSON.parse(retried.text) as Record<string, unknown>;
      assert.equal(answer["session"], session);
      assert.equal(answer["currentStep"], "WeatherStep");
      assert.deepEqual(await storedTurns(sqlitePath, session), { turns: 2, said: ["John Doe", "John Wick"] });
    }),
);

test(
  "a first turn whose server exited right after the commit is answered after a restart from the stored answer, and starts one session",
  { timeout: 60_000 },
  () =>
    afterCrash(1, async ({ dying, sqlitePath, restart }) => {
      const start = { body: { flow: "BasicFlow", message: "John Wick" }, headers: { "Idempotency-Key": randomUUID() } };
      await assert.rejects(postChat(dying.url, start.body, start.headers), /socket hang up|ECONNRESET/);
      await exitedAfterCommit(dying);
      const [session, ...others] = sessionIds(sqlitePath);
      assert.deepEqual(others, []);

      const retried = await postChat((await restart()).url, start.body, start.headers);
      assert.equal(retried.status, 200, retried.text);
      assert.equal(retried.headers["idempotent-replayed"], "true");
      assert.equal(retried.headers["chat_session_id"], session);
      assert.deepEqual(sessionIds(sqlitePath), [session]);
      assert.deepEqual(await storedTurns(sqlitePath, session!), { turns: 1, said: ["John Wick"] });
    }),
);
