import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { SqliteSessionStore } from "../../../src/store/sqlite/sqlite-session-store.ts";
import { scenarioFromSession } from "../../../src/testing/capture/scenario-from-session.ts";
import type { CassetteFile } from "../../../src/testing/cassette/cassette-file.ts";
import type { Scenario } from "../../../src/testing/index.ts";
import { basicFlowEntry, reminderFlowEntry } from "../../fixtures/flows/index.ts";
import { holdConversation } from "../../support/hold-conversation.ts";
import { playScenarioFile } from "../../support/play-scenario-file.ts";
import { tempDir } from "../../support/temp-path.ts";

const INPUTS = [
  "John Doe",
  "John Wick",
  "LA, NYC",
  "1600 SW Murray Blvd, Beaverton, OR 9700",
  "1600 sw murray blvd, beaverton, oregon 97006",
];
const flows = [basicFlowEntry];
let dir: Awaited<ReturnType<typeof tempDir>>;
let store: SqliteSessionStore;
let session: string;

before(async () => {
  dir = await tempDir("from-session");
  const sqlite = join(dir.path, "sessions.sqlite");
  session = await holdConversation(flows, "BasicFlow", INPUTS, sqlite);
  store = new SqliteSessionStore(sqlite);
});
after(async () => {
  await store.close();
  dir.remove();
});

const convert = (options: { force?: boolean; id?: string; folder?: string } = {}) =>
  scenarioFromSession({
    id: options.id ?? session,
    store,
    flows,
    env: {},
    dir: options.folder ?? join(dir.path, "written"),
    force: options.force ?? false,
  });

test("a BasicFlow session held over HTTP becomes a scenario of its turns' steps, run statuses and changed state, with its child run, and a cassette", async () => {
  const written = await convert({ force: true });
  assert.equal(written.file, join(dir.path, "written", `basic-flow-${session.slice(0, 8)}.scenario.json`));
  const scenario = JSON.parse(readFileSync(written.file, "utf8")) as Scenario;
  assert.deepEqual(
    scenario.turns.map((turn) => turn.input),
    INPUTS,
  );
  assert.deepEqual(
    scenario.turns.map((turn) => turn.expectedActiveStep),
    ["NameStep", "WeatherStep", "AddressStep", "AddressStep", "AddressStep"],
  );
  assert.deepEqual(
    scenario.turns.map((turn) => turn.completed),
    [false, false, false, false, true],
  );
  assert.deepEqual(scenario.turns[1]!.expectState, { NameStep: { name: "John Wick" } });
  assert.equal(scenario.turns[0]!.expectState, undefined);
  assert.deepEqual((scenario.finalState as { NameStep: unknown }).NameStep, { name: "John Wick" });
  assert.ok(
    scenario.finalChildren?.some((child) => child["flow"] === "AddressCheck" && child["runStatus"] === "completed"),
  );
  assert.match(Object.keys(scenario.env ?? {})[0] ?? "", /^BASIC_FLOW_CURRENT_DATE$/);
  const cassette = JSON.parse(readFileSync(written.cassette!, "utf8")) as CassetteFile;
  assert.ok(
    cassette.calls.some(
      (call) => call.where !== undefined && "flow" in call.where && call.where.flow === "AddressCheck",
    ),
    "the child flow's model calls are on tape",
  );
});

test("the scenario written from a session passes with FLOW_MODEL=replay and with the scripted model", async () => {
  const written = await convert({ force: true });
  const root = join(dir.path, "written");
  for (const mode of ["replay", "scripted"]) {
    const played = await playScenarioFile(written.file, flows, root, { FLOW_MODEL: mode });
    assert.equal(played.outcome, "passed", `${mode}: ${played.failure}`);
  }
});

test("a scenario written from a session fails once one of its expectations is changed", async () => {
  const root = join(dir.path, "changed");
  const written = await convert({ folder: root });
  const scenario = JSON.parse(readFileSync(written.file, "utf8")) as Scenario;
  scenario.turns[1]!.expectedActiveStep = "NameStep";
  writeFileSync(written.file, JSON.stringify(scenario));
  const played = await playScenarioFile(written.file, flows, root, { FLOW_MODEL: "replay" });
  assert.equal(played.outcome, "failed");
  assert.match(played.failure ?? "", /NameStep/);
});

test("an existing scenario is not overwritten without --force, and nothing is written", async () => {
  const root = join(dir.path, "taken");
  const first = await convert({ folder: root });
  writeFileSync(first.file, "{}");
  await assert.rejects(convert({ folder: root }), (error: Error & { code?: string }) => {
    assert.equal(error.code, "scenario_exists");
    assert.match(error.message, /--force/);
    return true;
  });
  assert.equal(readFileSync(first.file, "utf8"), "{}");
  await convert({ folder: root, force: true });
  assert.notEqual(readFileSync(first.file, "utf8"), "{}");
});

test("an unknown session id is refused with session_not_found, and no file is written", async () => {
  const root = join(dir.path, "unknown");
  await assert.rejects(convert({ id: "no-such-session", folder: root }), {
    code: "session_not_found",
    message: /no-such-session/,
  });
  assert.equal(existsSync(root), false);
});

test("a session of a flow that is not registered is refused with unknown_flow, naming the flow", async () => {
  await assert.rejects(scenarioFromSession({ id: session, store, flows: [], env: {}, dir: join(dir.path, "none") }), {
    code: "unknown_flow",
    message: /BasicFlow, which is not registered/,
  });
});

test("a session of a flow that reads its clock becomes a scenario pinned to the session's start, which fails under another pin", async () => {
  const reminder = [reminderFlowEntry];
  const id = await holdConversation(
    reminder,
    "ReminderFlow",
    ["water the plants", "in 3 days"],
    join(dir.path, "sessions.sqlite"),
  );
  const root = join(dir.path, "pinned");
  const written = await scenarioFromSession({ id, store, flows: reminder, env: {}, dir: root });
  const startedAt = (await store.fetchAll(id))!.createdAt;
  assert.deepEqual(written.scenario.env, { REMINDER_FLOW_CURRENT_DATE: startedAt });
  // The child dated the reminder on the pinned clock, to the millisecond.
  assert.equal(
    (written.scenario.finalState as { ReminderStep: { dueAt: string } }).ReminderStep.dueAt,
    new Date(Date.parse(startedAt) + 3 * 86_400_000).toISOString(),
  );
  for (const mode of ["replay", "scripted"]) {
    const played = await playScenarioFile(written.file, reminder, root, { FLOW_MODEL: mode });
    assert.equal(played.outcome, "passed", `${mode}: ${played.failure}`);
  }
  writeFileSync(
    written.file,
    JSON.stringify({
      ...written.scenario,
      env: { REMINDER_FLOW_CURRENT_DATE: new Date(Date.parse(startedAt) + 1).toISOString() },
    }),
  );
  const scripted = await playScenarioFile(written.file, reminder, root, { FLOW_MODEL: "scripted" });
  assert.equal(scripted.outcome, "failed");
  assert.match(scripted.failure ?? "", /dueAt/);
  const replayed = await playScenarioFile(written.file, reminder, root, { FLOW_MODEL: "replay" });
  assert.equal(replayed.outcome, "failed");
  assert.match(
    replayed.failure ?? "",
    /cassette_mismatch: .* differs from the recording in system/,
    "the cassette holds the prompts of the pinned clock",
  );
});

const mongoUrl = process.env["MONGO_URL"];
test("with SESSION_STORE=MONGO a session held over HTTP is read from MongoDB and becomes a scenario that passes", {
  skip: mongoUrl ? false : "MONGO_URL is not set: there is no MongoDB server to hold the session in",
}, async () => {
  const database = `flowcheck_capture_${process.pid}`;
  const { MongoSessionStore } = await import("../../../src/store/mongo/mongo-session-store.ts");
  const id = await holdConversation(flows, "BasicFlow", INPUTS, join(dir.path, "unused.sqlite"), {
    SESSION_STORE: "MONGO",
    MONGO_URL: mongoUrl!,
    DOCUMENT_DB: database,
  });
  const mongo = await MongoSessionStore.open(mongoUrl!, database);
  try {
    const root = join(dir.path, "mongo");
    const written = await scenarioFromSession({ id, store: mongo, flows, env: {}, dir: root });
    const played = await playScenarioFile(written.file, flows, root, { FLOW_MODEL: "replay" });
    assert.equal(played.outcome, "passed", played.failure);
  } finally {
    await mongo.dropDatabase();
    await mongo.close();
  }
});
