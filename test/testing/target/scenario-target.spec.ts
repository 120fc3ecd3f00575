import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { test } from "node:test";
import Database from "better-sqlite3";
import { isFlowcheckError } from "../../../src/errors.ts";
import { MongoSessionStore } from "../../../src/store/mongo/mongo-session-store.ts";
import { loadScenario, runScenario, startScenarioTarget, stepState } from "../../../src/testing/index.ts";
import type { LoadedScenario } from "../../../src/testing/scenario/scenario.ts";
import { BasicFlow, basicFlowEntry } from "../../fixtures/flows/index.ts";
import { fixtureScenario } from "../../support/fixture-scenario.ts";
import { clockFlows } from "../../support/clock-flow.ts";
import { envWith } from "../../support/env-with.ts";
import { tempDir } from "../../support/temp-path.ts";
import { collect } from "../../support/fake-chat-server.ts";

const BASIC_FLOW_FILE = fixtureScenario("basic-flow");
const PIN = "2027-07-15T00:00:00.000Z";
const EARLIER = "2026-01-02T03:04:05.000Z";
const VARIABLE = "CLOCK_FLOW_CURRENT_DATE";
const NOTE = "CLOCK_FLOW_NOTE";
const MONGO_URL = process.env["MONGO_URL"];
const UNSET_STORE = {
  FLOW_BASE_URL: undefined,
  SESSION_STORE: undefined,
  MONGO_URL: undefined,
  DOCUMENT_DB: undefined,
};

const clockScenario: LoadedScenario = {
  file: "test/testing/clock.scenario.json",
  name: "clock",
  scenario: {
    flowName: "ClockFlow",
    env: { [VARIABLE]: PIN, [NOTE]: "from the scenario" },
    turns: [{ label: "what day", input: "What day is it?", expectedActiveStep: "ClockStep" }],
  },
};

test("the whole BasicFlow scenario passes against the app booted in this process, on a scratch store of its own that is removed on close", async () => {
  const scratch = await tempDir("scenario-target");
  try {
    const loaded = loadScenario(BASIC_FLOW_FILE, [BasicFlow]);
    const target = await startScenarioTarget(loaded, {
      flows: [basicFlowEntry],
      scratchDir: scratch.path,
      env: envWith({ FLOW_BASE_URL: undefined }),
    });
    let played: Awaited<ReturnType<typeof collect>>;
    try {
      assert.match(target.description.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.deepEqual(target.description.models, { BasicFlow: "scripted" });
      assert.match(
        target.sessions.reader?.description ?? "",
        /^SQLite .*basic-flow-[^/]+\/sessions\.sqlite \(scratch: removed when the scenario ends\)$/,
      );
      assert.equal(readdirSync(scratch.path).length, 1);
      // The scratch store is the run's alone (no lock calls per statement, nothing flushed to disk).
      const other = new Database(join(scratch.path, readdirSync(scratch.path)[0]!, "sessions.sqlite"), { timeout: 0 });
      try {
        assert.throws(() => other.prepare("SELECT count(*) FROM sessions").get(), { code: "SQLITE_BUSY" });
      } finally {
        other.close();
      }
      played = await collect(
        runScenario(loaded, target, {
          domain: (document) =>
            assert.equal((stepState(document, "AddressStep")["address"] as { zip: string }).zip, "97006"),
        }),
      );
    } finally {
      await target.close();
    }
    assert.deepEqual(
      played.turns.map((turn) => [turn.label, turn.outcome, turn.failure]),
      loaded.scenario.turns.map((turn) => [turn.label, "passed", undefined]),
    );
    for (const turn of played.turns) {
      assert.deepEqual(
        turn.checks.filter((c) => c.outcome !== "passed").map((c) => c.contract),
        turn.number === 6 ? [] : ["judge"],
        `turn ${turn.number}: only the judge is not run`,
      );
    }
    assert.deepEqual(
      played.final.checks.map((c) => [c.name, c.outcome]),
      [
        ["finalState.NameStep", "passed"],
        ["finalState.WeatherStep", "passed"],
        ["finalState.AddressStep", "passed"],
        ["finalExecution", "passed"],
        ["finalChildren", "passed"],
        ["domain checks", "passed"],
      ],
    );
    assert.equal(played.outcome, "passed");
    assert.deepEqual(readdirSync(scratch.path), []);
  } finally {
    scratch.remove();
  }
});

test("a scenario's env defaults reach the app's clock and its steps' context.env, and the process environment is never written", async () => {
  const before = { ...process.env };
  const target = await startScenarioTarget(clockScenario, {
    flows: clockFlows,
    env: envWith({ [VARIABLE]: undefined, [NOTE]: undefined, FLOW_BASE_URL: undefined }),
  });
  let played: Awaited<ReturnType<typeof collect>>;
  try {
    assert.deepEqual({ ...process.env }, before);
    assert.equal(target.description.pins[VARIABLE], PIN);
    assert.equal(target.description.pins[NOTE], "from the scenario");
    assert.equal(target.capabilities?.config?.env[NOTE], "from the scenario");
    played = await collect(runScenario(clockScenario, target));
  } finally {
    await target.close();
  }
  assert.equal(played.turns[0]!.outcome, "passed", played.turns[0]!.failure);
  assert.equal(
    (played.turns[0]!.response?.body as { response: string }).response,
    `Today is ${PIN}. Note: from the scenario.`,
  );
  assert.deepEqual({ ...process.env }, before);
});

test("a value already in the environment wins over the scenario's default, and an empty one unsets it", async () => {
  const target = await startScenarioTarget(clockScenario, {
    flows: clockFlows,
    env: envWith({ FLOW_BASE_URL: undefined, [VARIABLE]: EARLIER, [NOTE]: "" }),
  });
  let played: Awaited<ReturnType<typeof collect>>;
  try {
    assert.equal(target.description.pins[VARIABLE], EARLIER);
    assert.equal(target.description.pins[NOTE], undefined);
    played = await collect(runScenario(clockScenario, target));
  } finally {
    await target.close();
  }
  assert.equal((played.turns[0]!.response?.body as { response: string }).response, `Today is ${EARLIER}.`);
});

test("two targets of one process, each with its scenario's env defaults, do not see each other's", async () => {
  const other: LoadedScenario = {
    ...clockScenario,
    scenario: { ...clockScenario.scenario, env: { [VARIABLE]: EARLIER, [NOTE]: "the other" } },
  };
  const env = envWith({ [VARIABLE]: undefined, [NOTE]: undefined, FLOW_BASE_URL: undefined });
  const [first, second] = await Promise.all([
    startScenarioTarget(clockScenario, { flows: clockFlows, env }),
    startScenarioTarget(other, { flows: clockFlows, env }),
  ]);
  try {
    const [a, b] = await Promise.all([collect(runScenario(clockScenario, first)), collect(runScenario(other, second))]);
    assert.equal(
      (a.turns[0]!.response?.body as { response: string }).response,
      `Today is ${PIN}. Note: from the scenario.`,
    );
    assert.equal(
      (b.turns[0]!.response?.body as { response: string }).response,
      `Today is ${EARLIER}. Note: the other.`,
    );
  } finally {
    await Promise.all([first.close(), second.close()]);
  }
});

test("a target that fails to boot on a bad scenario pin removes its scratch folder and leaves the environment as it was", async () => {
  const scratch = await tempDir("scenario-target");
  try {
    const before = { ...process.env };
    const badPin: LoadedScenario = {
      ...clockScenario,
      scenario: { ...clockScenario.scenario, env: { [VARIABLE]: "next tuesday", [NOTE]: "x" } },
    };
    await assert.rejects(
      startScenarioTarget(badPin, {
        flows: clockFlows,
        scratchDir: scratch.path,
        env: envWith({ [VARIABLE]: undefined, [NOTE]: undefined, FLOW_BASE_URL: undefined }),
      }),
      {
        code: "config_invalid",
        message: /CLOCK_FLOW_CURRENT_DATE="next tuesday" is not an ISO 8601 instant/,
      },
    );
    assert.deepEqual({ ...process.env }, before);
    assert.deepEqual(readdirSync(scratch.path), []);
  } finally {
    scratch.remove();
  }
});

test("with SESSION_STORE=MONGO and no MONGO_URL the target does not start, saying what is missing", async () => {
  await assert.rejects(
    startScenarioTarget(clockScenario, { flows: clockFlows, env: envWith({ ...UNSET_STORE, SESSION_STORE: "MONGO" }) }),
    {
      code: "config_invalid",
      message: /SESSION_STORE=MONGO needs MONGO_URL/,
    },
  );
});

test("with SESSION_STORE=MONGO the app keeps its sessions in MongoDB: one that cannot be reached fails the start, naming the URL without its password, and leaves nothing behind", async () => {
  const scratch = await tempDir("scenario-target");
  try {
    const env = {
      ...envWith({ [VARIABLE]: undefined, [NOTE]: undefined, ...UNSET_STORE }),
      SESSION_STORE: "MONGO",
      // Port 1 on loopback refuses at once, and the URL's own timeout stops the driver retrying for 5 s.
      MONGO_URL: "mongodb://tester:s3cret-pw@127.0.0.1:1/?directConnection=true&serverSelectionTimeoutMS=300",
    };
    await assert.rejects(
      startScenarioTarget(clockScenario, { flows: clockFlows, scratchDir: scratch.path, env }),
      (error) => {
        assert.ok(isFlowcheckError(error, "store_unavailable"), String(error));
        assert.match(error.message, /mongodb:\/\/tester:\*\*\*@127\.0\.0\.1:1/);
        assert.doesNotMatch(error.message, /s3cret-pw/);
        return true;
      },
    );
    assert.deepEqual(readdirSync(scratch.path), []);
  } finally {
    scratch.remove();
  }
});

test("with SESSION_STORE=MONGO the whole BasicFlow scenario passes with its sessions in MongoDB, which keeps them after the scenario", {
  skip: MONGO_URL ? false : "MONGO_URL is not set: there is no MongoDB server to play the scenario against",
}, async () => {
  const database = `flowcheck_test_${randomUUID().slice(0, 8)}`;
  const loaded = loadScenario(BASIC_FLOW_FILE, [BasicFlow]);
  const target = await startScenarioTarget(loaded, {
    flows: [basicFlowEntry],
    env: envWith({ FLOW_BASE_URL: undefined, SESSION_STORE: "MONGO", DOCUMENT_DB: database }),
  });
  let played: Awaited<ReturnType<typeof collect>>;
  try {
    assert.match(
      target.sessions.reader?.description ?? "",
      new RegExp(`^MongoDB .* database ${database} \\(kept after the scenario\\)$`),
    );
    played = await collect(runScenario(loaded, target));
  } finally {
    await target.close();
  }
  assert.equal(played.outcome, "passed", played.turns.find((turn) => turn.failure)?.failure ?? played.final.failure);
  const session = (played.turns[0]!.response?.body as { session: string }).session;
  const store = await MongoSessionStore.open(MONGO_URL!, database);
  try {
    assert.equal((await store.fetchHead(session))?.runStatus, "completed");
  } finally {
    await store.dropDatabase();
    await store.close();
  }
});
