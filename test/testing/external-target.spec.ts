import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { loadScenario, runScenario, startScenarioTarget } from "../../src/testing/index.ts";
import { BasicFlow, basicFlowEntry } from "../fixtures/flows/index.ts";
import { fixtureScenario } from "../support/fixture-scenario.ts";
import { startTestServer, type TestServer } from "../support/test-server.ts";
import { collect } from "./fake-chat-server.ts";

const basicFlow = loadScenario(fixtureScenario("basic-flow"), [BasicFlow]);
const NO_SQLITE_PATH = "FLOW_BASE_URL is set but SQLITE_PATH is not, so the target's store cannot be read; the persisted contract is not checked";

/** A running server and `env` set over process.env (undefined unsets), all undone afterwards. */
async function withExternalServer(env: (server: TestServer) => Record<string, string | undefined>, body: (server: TestServer) => Promise<void>): Promise<void> {
  const server = await startTestServer({ flows: [basicFlowEntry] });
  const names = ["FLOW_BASE_URL", "SQLITE_PATH", "SESSION_STORE", "MONGO_URL"];
  const saved = names.map((name) => [name, process.env[name]] as const);
  try {
    for (const name of names) delete process.env[name];
    for (const [name, value] of Object.entries(env(server))) if (value !== undefined) process.env[name] = value;
    await body(server);
  } finally {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await server.close();
  }
}

test("with FLOW_BASE_URL and SQLITE_PATH the runner drives the running server and reads its store read-only", async () => {
  await withExternalServer(
    (server) => ({ FLOW_BASE_URL: server.url, SQLITE_PATH: server.sqlitePath }),
    async (server) => {
      const target = await startScenarioTarget(basicFlow, { flows: [basicFlowEntry] });
      let played: Awaited<ReturnType<typeof collect>>;
      try {
        assert.equal(target.baseUrl, server.url);
        assert.equal(target.sessions?.description, `SQLite ${server.sqlitePath} (read-only)`);
        assert.equal(target.models, undefined);
        assert.equal(target.pins["FLOW_BASE_URL"], server.url);
        assert.equal(target.pins["SQLITE_PATH"], server.sqlitePath);
        played = await collect(runScenario(basicFlow, target));
      } finally {
        await target.close();
      }
      assert.deepEqual(
        played.turns.map((turn) => [turn.number, turn.outcome, turn.failure]),
        basicFlow.scenario.turns.map((_, index) => [index + 1, "passed", undefined]),
      );
      const persisted = played.turns[2]!.checks.filter((c) => c.contract === "persisted");
      assert.equal(persisted.length, 7);
      assert.ok(persisted.every((c) => c.outcome === "passed"));
      assert.equal(played.final.outcome, "passed");
      // What the runner read is what the server stored.
      const session = played.turns[0]!.stored!.id;
      assert.deepEqual(played.turns.at(-2)!.stored, await server.app.store.fetchHead(session));
      assert.deepEqual(played.final.stored, await server.app.store.fetchAll(session));
    },
  );
});

test("with FLOW_BASE_URL and no SQLITE_PATH the persisted contract and expectState are skipped saying why, and the final report is skipped, never passed", async () => {
  await withExternalServer(
    (server) => ({ FLOW_BASE_URL: server.url }),
    async (server) => {
      const target = await startScenarioTarget(basicFlow, { flows: [basicFlowEntry] });
      let played: Awaited<ReturnType<typeof collect>>;
      try {
        assert.equal(target.sessions, undefined);
        assert.equal(target.sessionsUnavailable, NO_SQLITE_PATH);
        played = await collect(runScenario(basicFlow, target));
      } finally {
        await target.close();
      }
      assert.deepEqual(
        played.turns.map((turn) => turn.outcome),
        basicFlow.scenario.turns.map(() => "passed"),
      );
      for (const turn of played.turns) {
        assert.deepEqual(
          turn.checks.filter((c) => c.contract === "persisted"),
          [{ contract: "persisted", name: "persisted contract", outcome: "skipped", message: NO_SQLITE_PATH }],
          `turn ${turn.number}`,
        );
        assert.equal(turn.stored, undefined);
      }
      assert.deepEqual(played.turns[0]!.checks.find((c) => c.name === "expectState.NameStep"), {
        contract: "expectation",
        name: "expectState.NameStep",
        outcome: "skipped",
        message: NO_SQLITE_PATH,
      });
      assert.deepEqual(played.final, { outcome: "skipped", skipReason: NO_SQLITE_PATH, checks: [] });
      // The transport contract is still checked: the server really had the conversation.
      assert.equal(played.turns[1]!.checks.find((c) => c.name === "session stable")?.outcome, "passed");
      assert.equal((await server.app.store.fetchAll(played.turns[0]!.response!.headers["chat_session_id"]!))?.runStatus, "completed");
    },
  );
});

test("with FLOW_BASE_URL and a SQLITE_PATH that does not exist the store is unavailable, naming the path", async () => {
  await withExternalServer(
    (server) => ({ FLOW_BASE_URL: server.url, SQLITE_PATH: join(server.sqlitePath, "..", "elsewhere.sqlite") }),
    async (server) => {
      const target = await startScenarioTarget(basicFlow, { flows: [basicFlowEntry] });
      try {
        assert.equal(target.sessions, undefined);
        assert.equal(
          target.sessionsUnavailable,
          `SQLITE_PATH=${join(server.sqlitePath, "..", "elsewhere.sqlite")} does not exist, so the target's store cannot be read; the persisted contract is not checked`,
        );
      } finally {
        await target.close();
      }
    },
  );
});

test("with FLOW_BASE_URL and another SESSION_STORE the store is unavailable, naming the store", async () => {
  await withExternalServer(
    (server) => ({ FLOW_BASE_URL: server.url, SESSION_STORE: "REDIS", SQLITE_PATH: server.sqlitePath }),
    async () => {
      const target = await startScenarioTarget(basicFlow, { flows: [basicFlowEntry] });
      try {
        assert.equal(target.sessions, undefined);
        assert.equal(target.sessionsUnavailable, "SESSION_STORE=REDIS cannot be read by this runner; the persisted contract is not checked");
      } finally {
        await target.close();
      }
    },
  );
});

test("with FLOW_BASE_URL, SESSION_STORE=MONGO and no MONGO_URL the store is unavailable, saying what is missing", async () => {
  await withExternalServer(
    (server) => ({ FLOW_BASE_URL: server.url, SESSION_STORE: "MONGO" }),
    async () => {
      const target = await startScenarioTarget(basicFlow, { flows: [basicFlowEntry] });
      try {
        assert.equal(target.sessions, undefined);
        assert.equal(target.sessionsUnavailable, "SESSION_STORE=MONGO is set but MONGO_URL is not, so the target's store cannot be read; the persisted contract is not checked");
      } finally {
        await target.close();
      }
    },
  );
});
