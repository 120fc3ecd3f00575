import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import type { RunResults } from "../../src/testing/report/run-results.ts";
import { ROOT, runCommand, type ChildRun, runFlowcheck } from "../support/child-run.ts";
import { sessionChatEntry, startSessionChatServer, type SessionChatServer } from "../support/session-chat-server.ts";
import { tempDir } from "../support/temp-path.ts";

// A flow spec for a flow a target of flowcheck.config.json serves: describeFlowScenarios by the
// flow's name, its checks in code reading the state the target stored (untyped), played by
// flowcheck test in a project of its own.

const SPEC = "test/flows/contact-flow.spec.ts";
const TOKEN = { authorization: "Bearer ${SUPPORT_TOKEN}" };

/** A contact conversation that gives `name`, then an email. */
function contact(name: string) {
  return {
    flowName: "ContactFlow",
    turns: [
      { label: "takes the name", input: name, expectedActiveStep: "EmailStep" },
      { label: "takes the email", input: "ada@example.com", expectedActiveStep: "EmailStep", completed: true },
    ],
  };
}

// Each check reads the target's stored state through stepState, as a spec of our engine's flow does.
const SPEC_TEXT = `import assert from "node:assert/strict";
import { describeFlowScenarios, stepState } from ${JSON.stringify(join(ROOT, "src", "testing", "index.ts"))};

const named = (name) => (document) => assert.equal(stepState(document, "NameStep")?.name, name, "the stored name");
describeFlowScenarios("ContactFlow", {
  flows: [],
  dir: "chats",
  everyScenario: { eachTurn: (head) => assert.ok(stepState(head, "NameStep"), "a name is stored after every turn") },
  scenarios: { ada: { domain: named("Ada Lovelace") }, grace: { domain: named("Ada Lovelace") } },
});
`;

let chat: SessionChatServer;

before(async () => {
  chat = await startSessionChatServer();
});

after(async () => {
  await chat?.close();
});

/** A project with `config` as flowcheck.config.json, the spec, and `scenarios` under chats/, by name. */
async function project(config: unknown, scenarios: Record<string, unknown>) {
  const dir = await tempDir("run-target-flow-spec");
  writeFileSync(join(dir.path, "flowcheck.config.json"), JSON.stringify(config));
  mkdirSync(join(dir.path, "chats"));
  for (const [name, scenario] of Object.entries(scenarios))
    writeFileSync(join(dir.path, "chats", `${name}.scenario.json`), JSON.stringify(scenario, null, 2));
  mkdirSync(join(dir.path, "test", "flows"), { recursive: true });
  writeFileSync(join(dir.path, SPEC), SPEC_TEXT);
  return dir;
}

function runSpec(cwd: string): Promise<ChildRun> {
  return runFlowcheck(["test", SPEC], { FLOW_TARGET: "support", SUPPORT_TOKEN: "fixture-token" }, undefined, cwd);
}

/** The spec under node:test alone, as an editor or `node --test` runs it: no flowcheck test to check the config first. */
function runSpecAlone(cwd: string): Promise<ChildRun> {
  return runCommand(
    process.execPath,
    ["--import", join(ROOT, "node_modules", "tsx", "dist", "esm", "index.mjs"), "--test", SPEC],
    { FLOW_TARGET: "support", SUPPORT_TOKEN: "fixture-token" },
    undefined,
    cwd,
  );
}

function resultsOf(cwd: string): RunResults {
  return JSON.parse(readFileSync(join(cwd, "test", ".tmp", "run-results.json"), "utf8")) as RunResults;
}

test("describeFlowScenarios by name plays an http target's flow with checks in code on its stored state: a check that holds passes, one that does not fails its scenario's final state", async () => {
  const dir = await project(
    { targets: { support: { ...sessionChatEntry(chat.url), headers: TOKEN } } },
    { ada: contact("Ada Lovelace"), grace: contact("Grace Hopper") },
  );
  try {
    const run = await runSpec(dir.path);
    const output = run.stdout + run.stderr;
    assert.equal(run.code, 1, output);
    const byName = new Map(resultsOf(dir.path).conversations.map((conversation) => [conversation.name, conversation]));
    assert.equal(byName.get("ada")?.outcome, "passed", output);
    const grace = byName.get("grace");
    assert.equal(grace?.outcome, "failed", output);
    assert.deepEqual(
      grace!.turns.map((turn) => turn.outcome),
      ["passed", "passed"],
      "the code's checks held on every turn",
    );
    assert.ok(
      grace!.turns.every((turn) => turn.checks.some((c) => c.contract === "domain" && c.outcome === "passed")),
      "eachTurn ran after every turn",
    );
    assert.equal(grace!.final?.outcome, "failed");
    assert.match(grace!.final?.failure ?? "", /the stored name/);
  } finally {
    dir.remove();
  }
});

test("an invalid flowcheck.config.json fails describeFlowScenarios with target_config_invalid, the file and each problem's JSON path, and stops flowcheck test before anything is played", async () => {
  const config = {
    targets: {
      support: { ...sessionChatEntry(chat.url), headers: { authorization: "Bearer written-in" } },
      other: { kind: "grpc", baseUrl: chat.url },
    },
  };
  const dir = await project(config, { ada: contact("Ada Lovelace") });
  const seen = chat.requests.length;
  const problems = [
    /flowcheck\.config\.json is not a valid flowcheck\.config\.json \(2 problems\)/,
    /targets\.support\.headers\.authorization is a credential written into the file/,
    /targets\.other\.kind: "grpc" is not one of/,
  ];
  try {
    const alone = await runSpecAlone(dir.path);
    const output = alone.stdout + alone.stderr;
    assert.equal(alone.code, 1, output);
    assert.match(output, /not ok \d+ - flowcheck\.config\.json loads|✖ flowcheck\.config\.json loads/);
    assert.match(output, /target_config_invalid/);
    for (const problem of problems) assert.match(output, problem);
    assert.doesNotMatch(output, /written-in/, "the credential is not quoted");

    const run = await runSpec(dir.path);
    const stopped = run.stdout + run.stderr;
    assert.equal(run.code, 2, stopped);
    assert.match(stopped, /stopped before playing anything: target_config_invalid/);
    for (const problem of problems) assert.match(stopped, problem);
    assert.doesNotMatch(stopped, /written-in/, "the credential is not quoted");
    assert.equal(chat.requests.length, seen, "no turn was sent");
  } finally {
    dir.remove();
  }
});

test("describeFlowScenarios refuses at load a langgraph target's turn that asks for a content type, naming the file, the key's path, the turn and why, before any request", async () => {
  // Nothing listens on this port: the refusal comes from the entry alone.
  const graphs = {
    kind: "langgraph",
    baseUrl: "http://127.0.0.1:9",
    graphs: { ContactFlow: { steps: ["NameStep", "EmailStep"] } },
  };
  const scenario = contact("Ada Lovelace");
  const csv = { ...scenario.turns[0]!, accept: "text/csv", expectContentType: "text/csv", expectCsvRows: [{}] };
  const dir = await project(
    { targets: { support: graphs } },
    { ada: { ...scenario, turns: [csv, scenario.turns[1]] } },
  );
  try {
    const run = await runSpec(dir.path);
    const output = run.stdout + run.stderr;
    assert.equal(run.code, 1, output);
    assert.match(output, /scenario_invalid/);
    assert.match(output, /chats\/ada\.scenario\.json is not a valid scenario \(3 problems\)/);
    for (const key of ["accept", "expectContentType", "expectCsvRows"])
      assert.match(
        output,
        new RegExp(
          `turns\\[0\\]\\.${key} \\(turn "takes the name"\\): graph ContactFlow of target support \\(http://127\\.0\\.0\\.1:9\\) answers each run's values as JSON whatever is asked`,
        ),
      );
  } finally {
    dir.remove();
  }
});
