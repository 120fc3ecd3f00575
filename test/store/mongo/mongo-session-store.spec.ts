import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { test } from "node:test";
import { isFlowcheckError } from "../../../src/errors.ts";
import {
  MongoSessionStore,
  redactMongoUrl,
  serverSelectionTimeout,
} from "../../../src/store/mongo/mongo-session-store.ts";
import { describeSessionStoreContract } from "../session-store-contract.ts";

const url = process.env["MONGO_URL"];

// The same contract as SQLite's, against a real server: run it with MONGO_URL=mongodb://… npm test.
describeSessionStoreContract(
  "MongoDB",
  async () => {
    const store = await MongoSessionStore.open(url!, `flowcheck_test_${randomUUID().slice(0, 8)}`);
    return {
      store,
      dispose: async () => {
        await store.dropDatabase();
        await store.close();
      },
    };
  },
  url ? undefined : "MONGO_URL is not set: there is no MongoDB server to run the store contract against",
);

test("a MongoDB store that cannot be reached fails at start with store_unavailable, naming the URL without its password", async () => {
  // Port 1 on loopback: nothing listens there, so the connection is refused at once.
  const unreachable = "mongodb://tester:s3cret-pw@127.0.0.1:1/?directConnection=true";
  await assert.rejects(MongoSessionStore.open(unreachable, "flowcheck", { timeoutMs: 300 }), (error) => {
    assert.ok(isFlowcheckError(error, "store_unavailable"), String(error));
    assert.match(error.message, /mongodb:\/\/tester:\*\*\*@127\.0\.0\.1:1/);
    assert.doesNotMatch(error.message, /s3cret-pw/);
    return true;
  });
});

test("a MongoDB URL's password is redacted, and a URL without one is left as it is", () => {
  assert.equal(
    redactMongoUrl("mongodb+srv://app:p%40ss@cluster.example/db"),
    "mongodb+srv://app:***@cluster.example/db",
  );
  assert.equal(redactMongoUrl("mongodb://127.0.0.1:27017"), "mongodb://127.0.0.1:27017");
});

test("the server selection timeout is the one asked for, else the URL's own, else 5 s", () => {
  assert.equal(serverSelectionTimeout("mongodb://127.0.0.1:27017/?serverSelectionTimeoutMS=300", 1000), 1000);
  assert.equal(
    serverSelectionTimeout("mongodb://127.0.0.1:27017/?directConnection=true&serverSelectionTimeoutMS=300", undefined),
    undefined,
  );
  assert.equal(serverSelectionTimeout("mongodb://127.0.0.1:27017/?connectTimeoutMS=300", undefined), 5000);
});
