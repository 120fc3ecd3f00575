import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { test } from "node:test";
import { MongoNetworkError, MongoServerError } from "mongodb";
import { loadConfig } from "../../../src/config.ts";
import { createApp } from "../../../src/create-app.ts";
import { FlowcheckError } from "../../../src/errors.ts";
import { serve } from "../../../src/serve.ts";
import { mongoFailure } from "../../../src/store/mongo/mongo-failure.ts";
import { MongoSessionStore } from "../../../src/store/mongo/mongo-session-store.ts";
import { BULK_PER_TURN, bulkyFlows } from "../../support/bulky-flow.ts";
import { jsonClient } from "../../support/json-client.ts";

const url = process.env["MONGO_URL"];
const WHERE = "MongoDB mongodb://127.0.0.1:27017 database flowcheck";

// The errors are made as the driver makes them (updateOne and insertOne throw a MongoServerError
// of the reply's first write error, { index, code, errmsg }), so the mapping is checked on the
// classes and codes a real server's refusal carries.
test("MongoDB's document size refusals (17419 on an update, 10334 on an insert) become 413 session_too_large naming the store", () => {
  for (const [code, errmsg] of [
    [17419, "Resulting document after update is larger than 16777216"],
    [10334, "BSONObj size: 16793700 (0x1000064) is invalid. Size must be between 0 and 16793600(16MB)"],
  ] as const) {
    const mapped = mongoFailure(new MongoServerError({ index: 0, code, errmsg }), WHERE);
    assert.ok(mapped instanceof FlowcheckError, String(mapped));
    assert.equal(mapped.code, "session_too_large");
    assert.equal(mapped.status, 413);
    assert.ok(mapped.message.includes(`16 MiB document limit in ${WHERE} (${errmsg})`), mapped.message);
    assert.match(
      mapped.message,
      /The turn was not applied and the session is as it was; start a new session to go on\.$/,
    );
  }
});

test("a MongoDB server's other refusals and a lost connection become 503 store_unavailable; any other error is left as it is", () => {
  for (const error of [
    new MongoServerError({ index: 0, code: 10107, errmsg: "not primary" }),
    new MongoNetworkError("connection 3 to 127.0.0.1:27017 closed"),
  ]) {
    const mapped = mongoFailure(error, WHERE);
    assert.ok(mapped instanceof FlowcheckError, String(mapped));
    assert.equal(mapped.code, "store_unavailable");
    assert.equal(mapped.status, 503);
    assert.ok(mapped.message.includes(error.message), mapped.message);
  }
  const bug = new TypeError("Cannot read properties of undefined");
  assert.equal(mongoFailure(bug, WHERE), bug);
});

test("a session growing past MongoDB's 16 MiB answers 413 session_too_large with its id, and the stored session is as before that turn", {
  skip: url ? false : "MONGO_URL is not set: there is no MongoDB server to reach the document size limit on",
  timeout: 120_000,
}, async () => {
  const store = await MongoSessionStore.open(url!, `flowcheck_test_${randomUUID().slice(0, 8)}`);
  const app = await createApp({ flows: bulkyFlows, config: loadConfig({}), store, log: () => undefined });
  const running = await serve(app, "127.0.0.1", 0);
  const client = jsonClient(running.url);
  try {
    const first = await client.post("/ai/chat", { flow: "BulkyFlow", message: "turn 1" });
    assert.equal(first.status, 200, JSON.stringify(first.body).slice(0, 300));
    const id = first.body["session"] as string;
    const limit = Math.ceil((16 * 1024 * 1024) / BULK_PER_TURN) + 1;
    for (let turn = 2; turn <= limit; turn++) {
      const before = await store.fetchAll(id);
      const answer = await client.post("/ai/chat", { message: `turn ${turn}` }, { CHAT_SESSION_ID: id });
      if (answer.status === 200) continue;
      assert.equal(answer.status, 413, JSON.stringify(answer.body).slice(0, 300));
      assert.equal((answer.body["error"] as { code: string }).code, "session_too_large");
      assert.equal(answer.body["session"], id);
      assert.equal(answer.headers["chat_session_id"], id);
      assert.deepStrictEqual(await store.fetchAll(id), before, "the refused turn left the session as it was");
      assert.equal(before?.turns, turn - 1);
      return;
    }
    assert.fail(`${limit} turns of ${BULK_PER_TURN} bytes each were all stored; the size limit was never met`);
  } finally {
    client.close();
    try {
      await store.dropDatabase();
    } finally {
      await running.close();
    }
  }
});
