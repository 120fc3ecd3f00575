import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { loadConfig } from "../../../../src/config.ts";
import { runScenario } from "../../../../src/testing/index.ts";
import { ProviderGate } from "../../../../src/testing/limits/provider-gate.ts";
import { RunArbiter } from "../../../../src/testing/limits/run-arbiter.ts";
import { runLimits } from "../../../../src/testing/limits/run-limits.ts";
import type { Scenario, ScenarioTurn } from "../../../../src/testing/scenario/scenario.ts";
import { httpTarget } from "../../../../src/testing/target/http/http-target.ts";
import { checkNamed, collect, failures } from "../../../support/fake-chat-server.ts";
import {
  sessionChatEntry,
  startSessionChatServer,
  type SessionChatServer,
} from "../../../support/session-chat-server.ts";

// An http target's answer carries a content type and a body, so a turn's accept, expectContentType
// and expectCsvRows mean there what they mean on our engine: the turn asks for the type, the answer's
// type is checked, and a CSV answer's rows are matched. A turn that asks CSV of the session chat
// server gets the stored fields as `step,field,value` rows.

let chat: SessionChatServer;

before(async () => {
  chat = await startSessionChatServer();
});

after(async () => {
  await chat?.close();
});

const NAME: ScenarioTurn = {
  label: "takes the name",
  input: "Ada Lovelace",
  expectedActiveStep: "EmailStep",
  expectContentType: "application/json",
};

const AS_CSV: ScenarioTurn = {
  label: "takes the email, rendered",
  input: "ada@example.com",
  accept: "text/csv",
  expectContentType: "text/csv",
  expectedActiveStep: "EmailStep",
  completed: true,
  expectState: { EmailStep: { email: "ada@example.com" } },
  expectCsvRows: [
    { step: "NameStep", field: "name", value: "Ada Lovelace" },
    { step: "EmailStep", field: "email", value: "ada@example.com" },
  ],
};

async function play(turns: ScenarioTurn[]) {
  const scenario: Scenario = { flowName: "ContactFlow", turns };
  const loaded = { file: "test/testing/target/http/contact.scenario.json", name: "contact", scenario };
  const config = loadConfig({});
  const provider = new ProviderGate(config, "contact", runLimits(new RunArbiter(), false));
  const target = httpTarget(sessionChatEntry(chat.url), "support", "ContactFlow", config, provider);
  return await collect(runScenario(loaded, target));
}

test("an http target's turn with accept: text/csv is sent that Accept, and its CSV answer passes expectContentType and expectCsvRows, the stored session still read", async () => {
  const seen = chat.requests.length;
  const played = await play([NAME, AS_CSV]);
  assert.equal(played.outcome, "passed", played.turns.flatMap(failures).join("\n"));
  const [json, csv] = played.turns;
  assert.equal(checkNamed(json!, "expectContentType").outcome, "passed");
  assert.equal(checkNamed(csv!, "expectContentType").outcome, "passed");
  assert.equal(checkNamed(csv!, "expectCsvRows").outcome, "passed");
  assert.equal(checkNamed(csv!, "expectState.EmailStep").outcome, "passed");
  assert.equal(checkNamed(csv!, "session stable").outcome, "passed");
  const posts = chat.requests.slice(seen).filter((request) => request.method === "POST");
  assert.deepEqual(
    posts.map((request) => request.headers.accept),
    ["application/json", "text/csv"],
  );
  assert.match(csv!.answer ?? "", /^step,field,value\n/);
});

test("an http target's answer of another content type than the turn expects fails expectContentType, naming both", async () => {
  const played = await play([{ ...NAME, expectContentType: "text/csv" }]);
  assert.equal(played.outcome, "failed");
  assert.deepEqual(failures(played.turns[0]!), [
    "expectContentType: expected Content-Type text/csv, got application/json",
  ]);
});

test("an http target's CSV answer whose rows differ from expectCsvRows fails it, naming the row and field", async () => {
  const rows = [
    { step: "NameStep", field: "name", value: "Grace Hopper" },
    { step: "EmailStep", field: "email", value: "ada@example.com" },
  ];
  const wrong = { ...AS_CSV, expectCsvRows: rows };
  const played = await play([NAME, wrong]);
  assert.equal(played.outcome, "failed");
  const [failure] = failures(played.turns[1]!);
  assert.match(failure ?? "", /^expectCsvRows: csv rows\[0\]\.value: expected "Grace Hopper", found "Ada Lovelace"/);
});
