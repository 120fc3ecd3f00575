import assert from "node:assert/strict";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { after, before, test } from "node:test";
import type { RunResults } from "../../src/testing/report/run-results.ts";
import { type ChildRun, runFlowcheck } from "../support/child-run.ts";
import { sessionChatEntry, startSessionChatServer, type SessionChatServer } from "../support/session-chat-server.ts";
import {
  startStatelessChatServer,
  statelessChatEntry,
  type StatelessChatServer,
} from "../support/stateless-chat-server.ts";
import { tempDir } from "../support/temp-path.ts";

// A project with no flow spec: flowcheck.config.json names three http targets (a chat API that
// keeps sessions, the same with a state endpoint that disagrees with its answers, and an
// OpenAI-compatible API that keeps nothing), and flowcheck test plays the scenario files against them.
const SCENARIOS = resolve(import.meta.dirname, "..", "fixtures", "http-scenarios");

let support: SessionChatServer;
let planted: SessionChatServer;
let echoing: SessionChatServer;
let stateless: StatelessChatServer;
let dir: { path: string; remove(): void };

before(async () => {
  [support, planted, echoing, stateless] = await Promise.all([
    startSessionChatServer(),
    startSessionChatServer({ stateStep: "NameStep" }),
    startSessionChatServer({ echoAuthorization: true }),
    startStatelessChatServer(),
  ]);
  dir = await tempDir("run-http-target");
  cpSync(SCENARIOS, join(dir.path, "chats"), { recursive: true });
  // The credential is a reference, as the config's rules require; the child's environment holds it.
  const token = { authorization: "Bearer ${SUPPORT_TOKEN}" };
  const locked = (url: string, stream = false) => ({ ...sessionChatEntry(url, { stream }), headers: token });
  const targets = {
    support: locked(support.url),
    planted: locked(planted.url),
    echoing: locked(echoing.url),
    streamed: locked(support.url, true),
    stateless: statelessChatEntry(stateless.url),
  };
  writeFileSync(join(dir.path, "flowcheck.config.json"), JSON.stringify({ targets }));
});

after(async () => {
  dir?.remove();
  await Promise.all([support?.close(), planted?.close(), echoing?.close(), stateless?.close()]);
});

function runSpecs(path: string, target = "support", specs: string[] = []): Promise<ChildRun> {
  return runFlowcheck(
    ["test", ...specs, path],
    { FLOW_TARGET: target, SUPPORT_TOKEN: "fixture-token" },
    undefined,
    dir.path,
  );
}

function resultsOf(): RunResults {
  return JSON.parse(readFileSync(join(dir.path, "test", ".tmp", "run-results.json"), "utf8")) as RunResults;
}

test("scenarios with no spec pass against an http target that keeps sessions (answering JSON, or a UI message stream) and one that keeps nothing, every turn in the results", async () => {
  const run = await runSpecs("chats/passing");
  const output = run.stdout + run.stderr;
  assert.equal(run.code, 0, output);
  const results = resultsOf();
  const byName = new Map(results.conversations.map((conversation) => [conversation.name, conversation]));
  assert.deepEqual([...byName.keys()].sort(), ["contact", "stateless", "streamed"], output);
  for (const conversation of byName.values()) {
    assert.equal(conversation.outcome, "passed", conversation.reason);
    assert.equal(conversation.turns.length, 3);
    assert.ok(conversation.turns.every((turn) => turn.outcome === "passed"));
  }
  // The session API's state endpoint was read after every turn; the stateless one's answers alone were held to the turns.
  const stored = byName.get("contact")!.turns.map((turn) => turn.stored?.step);
  assert.deepEqual(stored, ["NameStep", "EmailStep", "EmailStep"]);
  // It keeps no count of turns: none is recorded, and the turns check is skipped saying why, never compared with 0.
  for (const turn of byName.get("contact")!.turns) {
    assert.equal(turn.stored && "turns" in turn.stored, false, JSON.stringify(turn.stored));
    assert.match(turn.checks.find((c) => c.name === "turns")?.message ?? "", /reads no count of turns/);
  }
  assert.equal(
    byName.get("contact")!.turns[1]!.checks.find((c) => c.name === "expectState.NameStep")?.outcome,
    "passed",
  );
  const claims = byName.get("stateless")!.turns[1]!.checks.filter((c) => c.contract === "answer");
  assert.deepEqual(
    claims.map((c) => [c.name, c.outcome]),
    [
      ["currentStep", "passed"],
      ["runStatus", "skipped"],
      ["completed", "passed"],
    ],
  );
  assert.ok(support.requests.every((request) => request.headers.authorization === "Bearer fixture-token"));
  // The credential never reaches what the run wrote.
  assert.doesNotMatch(readFileSync(join(dir.path, "test", ".tmp", "run-results.json"), "utf8"), /fixture-token/);
});

test("a state endpoint that disagrees with the answer fails the persisted contract at that turn, with the file's line", async () => {
  const run = await runSpecs("chats/failing");
  const output = run.stdout + run.stderr;
  assert.equal(run.code, 1, output);
  const lines = readFileSync(join(SCENARIOS, "failing", "planted.scenario.json"), "utf8").split("\n");
  const line = lines.findIndex((text) => text.includes('"label": "takes the name"')) + 1;
  assert.match(
    output,
    new RegExp(
      `chats/failing/planted\\.scenario\\.json:${line}: turn 2 'takes the name': expected active step EmailStep, stored NameStep .*the answer says currentStep "EmailStep" but the store has "NameStep"`,
    ),
  );
  const [conversation] = resultsOf().conversations;
  assert.deepEqual(
    conversation!.turns.map((turn) => turn.outcome),
    ["passed", "failed", "skipped"],
  );
  const persisted = conversation!.turns[1]!.checks.filter((c) => c.contract === "persisted" && c.outcome === "failed");
  assert.deepEqual(
    persisted.map((c) => c.name),
    ["expectedActiveStep", "answer's currentStep"],
  );
});

test("a turn that expects an error status passes on that status from an http target, and the stored session is unchanged by it", async () => {
  const run = await runSpecs("chats/errors");
  const output = run.stdout + run.stderr;
  assert.equal(run.code, 0, output);
  const [conversation] = resultsOf().conversations;
  assert.equal(conversation?.outcome, "passed", output);
  const refused = conversation!.turns[2]!;
  assert.equal(refused.outcome, "passed", output);
  assert.equal(refused.checks.find((c) => c.name === "status")?.outcome, "passed");
  assert.equal(refused.checks.find((c) => c.name === "unchanged")?.outcome, "passed");
});

test("a credential of flowcheck.config.json that the server echoes is [redacted] in the run's results and report", async () => {
  const run = await runSpecs("chats/passing/contact.scenario.json", "echoing");
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.ok(echoing.requests.some((request) => request.headers.authorization === "Bearer fixture-token"));
  const results = readFileSync(join(dir.path, "test", ".tmp", "run-results.json"), "utf8");
  assert.match(results, /you sent \[redacted\]/);
  assert.ok(!results.includes("fixture-token"), results);
  assert.ok(!readFileSync(join(dir.path, "test", ".tmp", "report.html"), "utf8").includes("fixture-token"));
});

test("a project with no spec folder plays its scenarios as npm run test:flows names them, the missing test/flows holding no specs", async () => {
  const run = await runSpecs("chats/passing/contact.scenario.json", "support", ["test/flows"]);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.equal(resultsOf().conversations[0]?.outcome, "passed");
  const typo = await runSpecs("chats/passing/contact.scenario.json", "support", ["test/flows/contact-flow.spec.ts"]);
  assert.equal(typo.code, 2, "a spec file that does not exist is still refused");
  assert.match(typo.stderr, /test\/flows\/contact-flow\.spec\.ts: no such file or folder/);
});
