import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { loadScenario, runScenario, startScenarioTarget } from "../../../src/testing/index.ts";
import { BasicFlow, basicFlowEntry } from "../../fixtures/flows/index.ts";
import { fixtureScenario } from "../../support/fixture-scenario.ts";
import { envWith } from "../../support/env-with.ts";
import { startTestServer, type TestServer } from "../../support/test-server.ts";
import { collect } from "../../support/fake-chat-server.ts";

const basicFlow = loadScenario(fixtureScenario("basic-flow"), [BasicFlow]);
const NO_SQLITE_PATH =
  "FLOW_BASE_URL is set but SQLITE_PATH is not, so the target's store cannot be read; the persisted contract is not checked";

/** A running server, and the environment a target of it is read with: `env` over this process's, the store variables unset. */
async function withExternalServer(
  env: (server: TestServer) => Record<string, string | undefined>,
  body: (server: TestServer, env: Record<string, string | undefined>) => Promise<void>,
): Promise<void> {
  const server = await startTestServer({ flows: [basicFlowEntry] });
  const unset = { FLOW_BASE_URL: undefined, SQLITE_PATH: undefined, SESSION_STORE: undefined, MONGO_URL: undefined };
  try {
    await body(server, envWith({ ...unset, ...env(server) }));
  } finally {
    await server.close();
  }
}

test("with FLOW_BASE_URL and SQLITE_PATH the runner drives the running server and reads its store read-only", async () => {
  await withExternalServer(
    (server) => ({ FLOW_BASE_URL: server.url, SQLITE_PATH: server.sqlitePath }),
    async (server, env) => {
      const target = await startScenarioTarget(basicFlow, { flows: [basicFlowEntry], env });
      let played: Awaited<ReturnType<typeof collect>>;
      try {
        assert.equal(target.description.baseUrl, server.url);
        assert.equal(target.sessions.reader?.description, `SQLite ${server.sqlitePath} (read-only)`);
        assert.equal(target.description.models, undefined);
        assert.equal(target.description.pins["FLOW_BASE_URL"], server.url);
        assert.equal(target.description.pins["SQLITE_PATH"], server.sqlitePath);
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
    async (server, env) => {
      const target = await startScenarioTarget(basicFlow, { flows: [basicFlowEntry], env });
      let played: Awaited<ReturnType<typeof collect>>;
      try {
        assert.equal(target.sessions.reader, undefined);
        assert.equal(target.sessions.unavailable, NO_SQLITE_PATH);
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
      assert.deepEqual(
        played.turns[0]!.checks.find((c) => c.name === "expectState.NameStep"),
        {
          contract: "expectation",
          name: "expectState.NameStep",
          outcome: "skipped",
          message: NO_SQLITE_PATH,
        },
      );
      assert.deepEqual(played.final, { outcome: "skipped", skipReason: NO_SQLITE_PATH, checks: [] });
      // The transport contract is still checked: the server really had the conversation.
      assert.equal(played.turns[1]!.checks.find((c) => c.name === "session stable")?.outcome, "passed");
      assert.equal(
        (await server.app.store.fetchAll(played.turns[0]!.response!.headers["chat_session_id"]!))?.runStatus,
        "completed",
      );
    },
  );
});

test("with FLOW_BASE_URL and a SQLITE_PATH that does not exist the store is unavailable, naming the path", async () => {
  await withExternalServer(
    (server) => ({ FLOW_BASE_URL: server.url, SQLITE_PATH: join(server.sqlitePath, "..", "elsewhere.sqlite") }),
    async (server, env) => {
      const target = await startScenarioTarget(basicFlow, { flows: [basicFlowEntry], env });
      try {
        assert.equal(target.sessions.reader, undefined);
        assert.equal(
          target.sessions.unavailable,
          `SQLITE_PATH=${join(server.sqlitePath, "..", "elsewhere.sqlite")} does not exist, so the target's store cannot be read; the persisted contract is not checked`,
        );
      } finally {
        await target.close();
      }
    },
  );
});

test("with FLOW_BASE_URL, a SESSION_STORE this runner cannot read, or MONGO without MONGO_URL, the target does not start, saying what to set", async () => {
  for (const [store, problem] of [
    [{ SESSION_STORE: "REDIS" }, /SESSION_STORE="REDIS" is not valid: expected one of SQLITE, MONGO/],
    [{ SESSION_STORE: "MONGO" }, /SESSION_STORE=MONGO needs MONGO_URL/],
  ] as const) {
    await withExternalServer(
      (server) => ({ FLOW_BASE_URL: server.url, ...store }),
      async (_server, env) => {
        await assert.rejects(startScenarioTarget(basicFlow, { flows: [basicFlowEntry], env }), {
          code: "config_invalid",
          message: problem,
        });
      },
    );
  }
});

test("with FLOW_BASE_URL and FLOW_MODEL=record or replay the target does not start: the models are the server's", async () => {
  for (const mode of ["record", "replay"]) {
    await withExternalServer(
      (server) => ({ FLOW_BASE_URL: server.url, FLOW_MODEL: mode, OPENAI_API_KEY: "sk-test", CI: undefined }),
      async (server, env) => {
        await assert.rejects(startScenarioTarget(basicFlow, { flows: [basicFlowEntry], env }), {
          code: "config_invalid",
          message: new RegExp(
            `FLOW_MODEL=${mode} tapes the models of an app in this process, but FLOW_BASE_URL=${server.url} runs its models elsewhere`,
          ),
        });
      },
    );
  }
});

test("with FLOW_BASE_URL the flow's settings in a scenario's env are neither pinned nor read, since the server booted with its own environment, and its run settings reach the runner", async () => {
  const pinned = {
    ...basicFlow,
    scenario: {
      ...basicFlow.scenario,
      env: { BASIC_FLOW_CURRENT_DATE: "2027-01-01T00:00:00.000Z", FLOW_TURN_TIMEOUT_MS: "4321" },
    },
  };
  await withExternalServer(
    (server) => ({
      FLOW_BASE_URL: server.url,
      SQLITE_PATH: server.sqlitePath,
      BASIC_FLOW_CURRENT_DATE: undefined,
      FLOW_TURN_TIMEOUT_MS: undefined,
    }),
    async (_server, env) => {
      const target = await startScenarioTarget(pinned, { flows: [basicFlowEntry], env });
      try {
        assert.equal(target.description.pins["BASIC_FLOW_CURRENT_DATE"], undefined);
        assert.equal(target.capabilities?.config?.env["BASIC_FLOW_CURRENT_DATE"], undefined);
        assert.equal(target.capabilities?.config?.turnTimeoutMs, 4321);
      } finally {
        await target.close();
      }
    },
  );
});
