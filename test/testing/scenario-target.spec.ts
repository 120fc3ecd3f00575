import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { test } from "node:test";
import Database from "better-sqlite3";
import { isFlowcheckError } from "../../src/errors.ts";
import { MongoSessionStore } from "../../src/store/mongo/mongo-session-store.ts";
import { loadScenario, runScenario, startScenarioTarget, stepState } from "../../src/testing/index.ts";
import type { LoadedScenario } from "../../src/testing/scenario/scenario.ts";
import { BasicFlow, basicFlowEntry } from "../fixtures/flows/index.ts";
import { fixtureScenario } from "../support/fixture-scenario.ts";
import { clockFlows } from "../support/clock-flow.ts";
import { tempDir } from "../support/temp-path.ts";
import { collect } from "./fake-chat-server.ts";

const BASIC_FLOW_FILE = fixtureScenario("basic-flow");
const PIN = "2027-07-15T00:00:00.000Z";
const EARLIER = "2026-01-02T03:04:05.000Z";
const VARIABLE = "CLOCK_FLOW_CURRENT_DATE";
const NOTE = "CLOCK_FLOW_NOTE";
const MONGO_URL = process.env["MONGO_URL"];
const STORE_VARIABLES = ["FLOW_BASE_URL", "SESSION_STORE", "MONGO_URL", "DOCUMENT_DB"];

const clockScenario: LoadedScenario = {
  file: "test/testing/clock.scenario.json",
  name: "clock",
  scenario: {
    flowName: "ClockFlow",
    env: { [VARIABLE]: PIN, [NOTE]: "from the scenario" },
    turns: [{ label: "what day", input: "What day is it?", expectedActiveStep: "ClockStep" }],
  },
};

/** Runs `body` with `names` as they are now, and puts them back afterwards. */
async function keepingEnv(names: string[], body: () => Promise<void>): Promise<void> {
  const saved = names.map((name) => [name, process.env[name]] as const);
  try {
    await body();
  } finally {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

test("the whole BasicFlow scenario passes against the app booted in this process, on a scratch store of its own that is removed on close", async () => {
  const scratch = await tempDir("scenario-target");
  try {
    await keepingEnv(["FLOW_BASE_URL"], async () => {
      delete process.env["FLOW_BASE_URL"];
      const loaded = loadScenario(BASIC_FLOW_FILE, [BasicFlow]);
      const target = await startScenarioTarget(loaded, { flows: [basicFlowEntry], scratchDir: scratch.path });
      let played: Awaited<ReturnType<typeof collect>>;
      try {
        assert.match(target.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
        assert.deepEqual(target.models, { BasicFlow: "scripted" });
        assert.match(target.sessions?.description ?? "", /^SQLite .*basic-flow-[^/]+\/sessions\.sqlite \(scratch: removed when the scenario ends\)$/);
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
            domain: (document) => assert.equal(stepState<{ address: { zip: string } }>(document, "AddressStep").address.zip, "97006"),
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
      assert.deepEqual(played.final.checks.map((c) => [c.name, c.outcome]), [
        ["finalState.NameStep", "passed"],
        ["finalState.WeatherStep", "passed"],
        ["finalState.AddressStep", "passed"],
        ["finalExecution", "passed"],
        ["finalChildren", "passed"],
        ["domain checks", "passed"],
      ]);
      assert.equal(played.outcome, "passed");
      assert.deepEqual(readdirSync(scratch.path), []);
    });
  } finally {
    scratch.remove();
  }
});

test("a scenario's env defaults are set before the app boots and removed when the target closes", async () => {
  await keepingEnv([VARIABLE, NOTE, "FLOW_BASE_URL"], async () => {
    delete process.env[VARIABLE];
    delete process.env[NOTE];
    delete process.env["FLOW_BASE_URL"];
    const target = await startScenarioTarget(clockScenario, { flows: clockFlows });
    let played: Awaited<ReturnType<typeof collect>>;
    try {
      assert.equal(process.env[VARIABLE], PIN);
      assert.equal(process.env[NOTE], "from the scenario");
      assert.equal(target.pins[VARIABLE], PIN);
      assert.equal(target.pins[NOTE], "from the scenario");
      played = await collect(runScenario(clockScenario, target));
    } finally {
      await target.close();
    }
    assert.equal(played.turns[0]!.outcome, "passed", played.turns[0]!.failure);
    assert.equal((played.turns[0]!.response?.body as { response: string }).response, `Today is ${PIN}.`);
    assert.equal(process.env[VARIABLE], undefined);
    assert.equal(process.env[NOTE], undefined);
  });
});

test("a value already in the environment wins over the scenario's default and stays after close", async () => {
  await keepingEnv([VARIABLE, NOTE, "FLOW_BASE_URL"], async () => {
    process.env[VARIABLE] = EARLIER;
    delete process.env[NOTE];
    delete process.env["FLOW_BASE_URL"];
    const target = await startScenarioTarget(clockScenario, { flows: clockFlows });
    let played: Awaited<ReturnType<typeof collect>>;
    try {
      assert.equal(target.pins[VARIABLE], EARLIER);
      played = await collect(runScenario(clockScenario, target));
    } finally {
      await target.close();
    }
    assert.equal((played.turns[0]!.response?.body as { response: string }).response, `Today is ${EARLIER}.`);
    assert.equal(process.env[VARIABLE], EARLIER);
    assert.equal(process.env[NOTE], undefined);
  });
});

test("a target that fails to boot removes the env defaults it set and its scratch folder", async () => {
  const scratch = await tempDir("scenario-target");
  try {
    await keepingEnv([VARIABLE, NOTE, "FLOW_BASE_URL"], async () => {
      delete process.env[VARIABLE];
      delete process.env[NOTE];
      delete process.env["FLOW_BASE_URL"];
      const badPin: LoadedScenario = { ...clockScenario, scenario: { ...clockScenario.scenario, env: { [VARIABLE]: "next tuesday", [NOTE]: "x" } } };
      await assert.rejects(startScenarioTarget(badPin, { flows: clockFlows, scratchDir: scratch.path }), {
        code: "config_invalid",
        message: /CLOCK_FLOW_CURRENT_DATE="next tuesday" is not an ISO 8601 instant/,
      });
      assert.equal(process.env[VARIABLE], undefined);
      assert.equal(process.env[NOTE], undefined);
      assert.deepEqual(readdirSync(scratch.path), []);
    });
  } finally {
    scratch.remove();
  }
});

test("with SESSION_STORE=MONGO and no MONGO_URL the target does not start, saying what is missing", async () => {
  await keepingEnv(STORE_VARIABLES, async () => {
    for (const name of STORE_VARIABLES) delete process.env[name];
    process.env["SESSION_STORE"] = "MONGO";
    await assert.rejects(startScenarioTarget(clockScenario, { flows: clockFlows }), {
      code: "config_invalid",
      message: /SESSION_STORE=MONGO needs MONGO_URL/,
    });
  });
});

test("with SESSION_STORE=MONGO the app keeps its sessions in MongoDB: one that cannot be reached fails the start, naming the URL without its password, and leaves nothing behind", async () => {
  const scratch = await tempDir("scenario-target");
  try {
    await keepingEnv([VARIABLE, NOTE, ...STORE_VARIABLES], async () => {
      for (const name of [VARIABLE, NOTE, ...STORE_VARIABLES]) delete process.env[name];
      process.env["SESSION_STORE"] = "MONGO";
      // Port 1 on loopback refuses at once, and the URL's own timeout stops the driver retrying for 5 s.
      process.env["MONGO_URL"] = "mongodb://tester:s3cret-pw@127.0.0.1:1/?directConnection=true&serverSelectionTimeoutMS=300";
      await assert.rejects(startScenarioTarget(clockScenario, { flows: clockFlows, scratchDir: scratch.path }), (error) => {
        assert.ok(isFlowcheckError(error, "store_unavailable"), String(error));
        assert.match(error.message, /mongodb:\/\/tester:\*\*\*@127\.0\.0\.1:1/);
        assert.doesNotMatch(error.message, /s3cret-pw/);
        return true;
      });
      assert.equal(process.env[VARIABLE], undefined, "the scenario's env defaults are undone");
      assert.deepEqual(readdirSync(scratch.path), []);
    });
  } finally {
    scratch.remove();
  }
});

test(
  "with SESSION_STORE=MONGO the whole BasicFlow scenario passes with its sessions in MongoDB, which keeps them after the scenario",
  { skip: MONGO_URL ? false : "MONGO_URL is not set: there is no MongoDB server to play the scenario against" },
  async () => {
    const database = `flowcheck_test_${randomUUID().slice(0, 8)}`;
    await keepingEnv(STORE_VARIABLES, async () => {
      delete process.env["FLOW_BASE_URL"];
      process.env["SESSION_STORE"] = "MONGO";
      process.env["DOCUMENT_DB"] = database;
      const loaded = loadScenario(BASIC_FLOW_FILE, [BasicFlow]);
      const target = await startScenarioTarget(loaded, { flows: [basicFlowEntry] });
      let played: Awaited<ReturnType<typeof collect>>;
      try {
        assert.match(target.sessions?.description ?? "", new RegExp(`^MongoDB .* database ${database} \\(kept after the scenario\\)$`));
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
  },
);
