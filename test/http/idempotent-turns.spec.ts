import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";
import Database from "better-sqlite3";
import { loadConfig } from "../../src/config.ts";
import { createApp } from "../../src/create-app.ts";
import { serve } from "../../src/serve.ts";
import { SqliteSessionStore } from "../../src/store/sqlite/sqlite-session-store.ts";
import { ModelFaults } from "../../src/testing/target/model-faults.ts";
import { postChat, type PostedAnswer } from "../support/post-chat.ts";
import { relayFlows } from "../support/relay-flow.ts";
import { holdTallies, tallyFlows } from "../support/tally-flow.ts";
import { startTestServer, type TestServer } from "../support/test-server.ts";

// A turn sent again under the same Idempotency-Key is answered with the first answer and applied
// once; the stored turn count (and the tally the flow keeps) proves it.

const FLOWS = [...tallyFlows, ...relayFlows];
const faults = new ModelFaults();
let server: TestServer;

function send(body: unknown, key: string | undefined, headers: Record<string, string> = {}): Promise<PostedAnswer> {
  return postChat(server.url, body, key === undefined ? headers : { ...headers, "Idempotency-Key": key });
}

function sessionOf(answer: PostedAnswer): string {
  assert.equal(answer.status, 200, answer.text);
  return answer.headers["chat_session_id"] as string;
}

async function turnsOf(session: string): Promise<number | undefined> {
  return (await server.app.store.fetchHead(session))?.turns;
}

async function tallyOf(session: string): Promise<unknown> {
  return (await server.app.store.fetchHead(session))?.steps["TallyStep"]?.["count"];
}

function storedSessions(): number {
  const db = new Database(server.sqlitePath, { readonly: true });
  try {
    return (db.prepare("SELECT COUNT(*) AS n FROM sessions").get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** The second answer is the first one again, to the byte, marked as a replay. */
function assertReplayed(again: PostedAnswer, first: PostedAnswer): void {
  assert.equal(again.status, first.status);
  assert.equal(again.text, first.text);
  assert.equal(again.headers["content-type"], first.headers["content-type"]);
  assert.equal(again.headers["chat_session_id"], first.headers["chat_session_id"]);
  assert.equal(again.headers["idempotent-replayed"], "true");
  assert.equal(first.headers["idempotent-replayed"], undefined);
}

/** What `sending` answers while every turn's first model call fails. */
async function whileTheModelFails(sending: () => Promise<PostedAnswer>): Promise<PostedAnswer> {
  faults.arm({ call: 1, kind: "error" });
  try {
    return await sending();
  } finally {
    faults.disarm();
  }
}

function errorOf(answer: PostedAnswer): { code: string; message: string } {
  return (JSON.parse(answer.text) as { error: { code: string; message: string } }).error;
}

// In a describe, not at the top: a spec shares its process with others, and the server must be gone before they run.
describe("idempotent turns over HTTP", () => {
  before(async () => {
    server = await startTestServer({ flows: FLOWS, wrapModel: faults.wrap });
  });

  after(async () => {
    await server.close();
  });

  describe("a turn under an Idempotency-Key", () => {
    test("a first turn sent twice under one key starts one session, and both answers are the same", async () => {
      const sessionsBefore = storedSessions();
      const body = { flow: "TallyFlow", message: "one" };
      const key = randomUUID();
      const first = await send(body, key);
      const again = await send(body, key);
      assertReplayed(again, first);
      const session = sessionOf(first);
      assert.equal(storedSessions(), sessionsBefore + 1);
      assert.equal(await turnsOf(session), 1);
      assert.equal(await tallyOf(session), 1);
    });

    test("a turn on a session sent twice under one key is applied once, and the retry asks no model", async () => {
      const session = sessionOf(await send({ flow: "TallyFlow", message: "one" }, randomUUID()));
      const key = randomUUID();
      const first = await send({ message: "two" }, key, { CHAT_SESSION_ID: session });
      // A model call now would fail the turn: the answer comes from the store, the model is not asked.
      assertReplayed(
        await whileTheModelFails(() => send({ message: "two" }, key, { CHAT_SESSION_ID: session })),
        first,
      );
      assert.equal(JSON.parse(first.text).response, "Counted 2.");
      assert.equal(await turnsOf(session), 2);
      assert.equal(await tallyOf(session), 2);
      // The session id may come in the body as well: the scope is the session, however it is named.
      assertReplayed(await send({ session, message: "two" }, key), first);
      assert.equal(await turnsOf(session), 2);
    });

    test("another message under a used key is refused with 422 idempotency_key_reused and applies nothing", async () => {
      const session = sessionOf(await send({ flow: "TallyFlow", message: "one" }, randomUUID()));
      const key = randomUUID();
      sessionOf(await send({ message: "two" }, key, { CHAT_SESSION_ID: session }));
      const reused = await send({ message: "three" }, key, { CHAT_SESSION_ID: session });
      assert.equal(reused.status, 422);
      assert.equal(errorOf(reused).code, "idempotency_key_reused");
      assert.match(
        errorOf(reused).message,
        new RegExp(`Idempotency-Key "${key}" on session "${session}" was used for another request`),
      );
      assert.equal(reused.headers["chat_session_id"], session);
      assert.equal(await turnsOf(session), 2);
      assert.equal(await tallyOf(session), 2);
    });

    // A retry that waited for the first instead of being refused would wait behind it for ever: the timeout fails it.
    test("a retry while the first request still runs is refused with 409 idempotency_key_in_flight; the first is applied once", {
      timeout: 30_000,
    }, async () => {
      const session = sessionOf(await send({ flow: "TallyFlow", message: "one" }, randomUUID()));
      const key = randomUUID();
      const hold = holdTallies();
      const first = send({ message: "two" }, key, { CHAT_SESSION_ID: session });
      try {
        await hold.reached;
        const retry = await send({ message: "two" }, key, { CHAT_SESSION_ID: session });
        assert.equal(retry.status, 409, retry.text);
        assert.equal(errorOf(retry).code, "idempotency_key_in_flight");
        assert.equal(retry.headers["chat_session_id"], session);
      } finally {
        hold.release();
      }
      const answered = await first;
      assert.equal(answered.status, 200);
      assertReplayed(await send({ message: "two" }, key, { CHAT_SESSION_ID: session }), answered);
      assert.equal(await turnsOf(session), 2);
      assert.equal(await tallyOf(session), 2);
    });

    test("one keyed turn sent to two servers sharing a SQLite file while it runs is applied once, and both answer with it", {
      timeout: 30_000,
    }, async () => {
      const other = await serve(
        await createApp({
          flows: FLOWS,
          config: loadConfig({}),
          store: new SqliteSessionStore(server.sqlitePath),
          log: () => undefined,
        }),
        "127.0.0.1",
        0,
      );
      try {
        const session = sessionOf(await send({ flow: "TallyFlow", message: "one" }, randomUUID()));
        const headers = { CHAT_SESSION_ID: session, "Idempotency-Key": randomUUID() };
        const hold = holdTallies();
        const sent = [
          postChat(server.url, { message: "two" }, headers),
          postChat(other.url, { message: "two" }, headers),
        ];
        try {
          // Both have looked for a kept answer, found none and run the turn: one save must lose.
          await hold.reached(2);
        } finally {
          hold.release();
        }
        const answers = await Promise.all(sent);
        assert.deepEqual(
          answers.map((answer) => answer.status),
          [200, 200],
        );
        assert.equal(answers[0]!.text, answers[1]!.text);
        assert.deepEqual(answers.map((answer) => answer.headers["idempotent-replayed"]).sort(), ["true", undefined]);
        assert.equal(await turnsOf(session), 2);
        assert.equal(await tallyOf(session), 2);
      } finally {
        await other.close();
      }
    });

    test("keys are scoped to the session: one key applies a turn on each of two sessions, and a first turn's key is a scope of its own", async () => {
      const [a, b] = [randomUUID(), randomUUID()];
      const one = sessionOf(await send({ flow: "TallyFlow", message: "one" }, a));
      const other = sessionOf(await send({ flow: "TallyFlow", message: "one" }, b));
      const shared = randomUUID();
      const onOne = await send({ message: "two" }, shared, { CHAT_SESSION_ID: one });
      const onOther = await send({ message: "two" }, shared, { CHAT_SESSION_ID: other });
      assert.equal(onOne.headers["idempotent-replayed"], undefined);
      assert.equal(onOther.headers["idempotent-replayed"], undefined);
      assert.equal(sessionOf(onOther), other);
      assert.deepEqual([await turnsOf(one), await turnsOf(other)], [2, 2]);
      // A key used on a session is not used for a first turn, and the first turn's key is not used on the session.
      const third = sessionOf(await send({ flow: "TallyFlow", message: "two" }, shared));
      assert.notEqual(third, one);
      assert.notEqual(third, other);
      const onOneUnderA = await send({ message: "one" }, a, { CHAT_SESSION_ID: one });
      assert.equal(onOneUnderA.headers["idempotent-replayed"], undefined);
      assert.equal(await turnsOf(one), 3);
    });

    test("each kind of answer is replayed exactly: JSON, an event stream and a CSV rendering of the session as it was", async () => {
      const session = sessionOf(await send({ flow: "TallyFlow", message: "one" }, randomUUID()));
      const [stream, csv] = [randomUUID(), randomUUID()];
      const streamed = await send({ message: "two" }, stream, {
        CHAT_SESSION_ID: session,
        Accept: "text/event-stream",
      });
      assert.match(String(streamed.headers["content-type"]), /^text\/event-stream/);
      assert.match(streamed.text, /^event: token\n[\s\S]*event: done\n/);
      assertReplayed(
        await send({ message: "two" }, stream, { CHAT_SESSION_ID: session, Accept: "text/event-stream" }),
        streamed,
      );
      const rendered = await send({ message: "three" }, csv, { CHAT_SESSION_ID: session, Accept: "text/csv" });
      assert.equal(rendered.text, "count\n3\n");
      assert.match(String(rendered.headers["content-type"]), /^text\/csv/);
      sessionOf(await send({ message: "four" }, randomUUID(), { CHAT_SESSION_ID: session, Accept: "text/csv" }));
      // The session renders a count of 4 now; the kept answer is the one sent at 3, whatever the retry accepts.
      const again = await send({ message: "three" }, csv, { CHAT_SESSION_ID: session, Accept: "application/json" });
      assertReplayed(again, rendered);
      assert.equal(await tallyOf(session), 4);
    });

    test("the retry of the turn that completed a run gets its answer, not flow_completed", async () => {
      const session = sessionOf(await send({ flow: "RelayFlow", message: "hi" }, randomUUID()));
      const key = randomUUID();
      const completing = await send({ message: "bye" }, key, { CHAT_SESSION_ID: session });
      assert.equal(JSON.parse(completing.text).completed, true);
      assertReplayed(await send({ message: "bye" }, key, { CHAT_SESSION_ID: session }), completing);
      const unkeyed = await send({ message: "bye" }, undefined, { CHAT_SESSION_ID: session });
      assert.equal(errorOf(unkeyed).code, "flow_completed");
    });

    test("a keyed turn that failed is not kept: the same key again applies it", async () => {
      const session = sessionOf(await send({ flow: "TallyFlow", message: "one" }, randomUUID()));
      const key = randomUUID();
      const failed = await whileTheModelFails(() => send({ message: "two" }, key, { CHAT_SESSION_ID: session }));
      assert.equal(failed.status, 502);
      assert.equal(await turnsOf(session), 1);
      const applied = await send({ message: "two" }, key, { CHAT_SESSION_ID: session });
      assert.equal(applied.status, 200);
      assert.equal(applied.headers["idempotent-replayed"], undefined);
      assert.equal(await turnsOf(session), 2);
    });
  });

  describe("the Idempotency-Key header", () => {
    const malformed: [string, string][] = [
      ["empty", ""],
      ["256 characters long", "k".repeat(256)],
      ["with a space", "my key"],
      ["two keys", "one, two"],
      ["with a quote inside", 'a"b'],
      ["not ASCII", "clé"],
    ];
    for (const [what, value] of malformed) {
      test(`a key ${what} is refused with 400 invalid_request naming the header, and nothing is applied`, async () => {
        const session = sessionOf(await send({ flow: "TallyFlow", message: "one" }, undefined));
        const refused = await send({ message: "two" }, value, { CHAT_SESSION_ID: session });
        assert.equal(refused.status, 400, refused.text);
        assert.equal(errorOf(refused).code, "invalid_request");
        assert.match(
          errorOf(refused).message,
          /^The Idempotency-Key header .* is not a key: send one key of 1 to 255 visible ASCII characters/,
        );
        assert.equal(await turnsOf(session), 1);
      });
    }

    test("a key of 255 characters is taken, and its quoted form (the draft standard's) names the same key", async () => {
      const session = sessionOf(await send({ flow: "TallyFlow", message: "one" }, undefined));
      const key = `${randomUUID()}${"k".repeat(255 - 36)}`;
      const first = await send({ message: "two" }, key, { CHAT_SESSION_ID: session });
      assert.equal(first.status, 200, first.text);
      assertReplayed(await send({ message: "two" }, `"${key}"`, { CHAT_SESSION_ID: session }), first);
      assert.equal(await turnsOf(session), 2);
    });
  });
});
