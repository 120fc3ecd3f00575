import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { test } from "node:test";
import {
  renderTranscript,
  runScenario,
  startScenarioTarget,
  type Scenario,
  type Transcript,
} from "../../../src/testing/index.ts";
import type { RunOptions } from "../../../src/testing/run/run-options.ts";
import { TranscriptWriter } from "../../../src/testing/report/transcript-writer.ts";
import { relayFlows } from "../../support/relay-flow.ts";
import { envWith } from "../../support/env-with.ts";
import { tempDir } from "../../support/temp-path.ts";
import { startTestServer } from "../../support/test-server.ts";
import { collect, FAKE_FLOW, FakeChatServer, type Played } from "../../support/fake-chat-server.ts";

// The runner drives a running app (RelayFlow: any message on GreetStep moves to FarewellStep, any
// message there completes the run) through FLOW_BASE_URL, as it drives a staging server.

const ROOT = resolve(import.meta.dirname, "..", "..", "..");
const NO_SQLITE_PATH =
  "FLOW_BASE_URL is set but SQLITE_PATH is not, so the target's store cannot be read; the persisted contract is not checked";
const STORE_ENV = ["FLOW_BASE_URL", "SQLITE_PATH", "SESSION_STORE", "MONGO_URL"];

const GREETED = { label: "greet", input: "hi", expectedActiveStep: "FarewellStep" };
const ENDED = { label: "bye", input: "bye", expectedActiveStep: "FarewellStep", completed: true };

function relayScenario(turns: Scenario["turns"]) {
  return { file: "test/testing/relay.scenario.json", name: "relay", scenario: { flowName: "RelayFlow", turns } };
}

/**
 * Plays `turns` against RelayFlow served on 127.0.0.1, through FLOW_BASE_URL, with SQLITE_PATH set
 * to the app's file when `readableStore`; the environment, server and file are undone afterwards.
 */
async function playExternal(
  turns: Scenario["turns"],
  options: { readableStore?: boolean; run?: RunOptions; transcripts?: TranscriptWriter } = {},
): Promise<Omit<Played, "fake">> {
  const server = await startTestServer({ flows: relayFlows });
  try {
    const env = envWith({
      ...Object.fromEntries(STORE_ENV.map((name) => [name, undefined])),
      FLOW_BASE_URL: server.url,
      ...(options.readableStore ? { SQLITE_PATH: server.sqlitePath } : {}),
    });
    const loaded = relayScenario(turns);
    const target = await startScenarioTarget(loaded, { flows: relayFlows, env });
    try {
      const events = runScenario(loaded, target, options.run);
      return await collect(options.transcripts ? tee(events, options.transcripts.listener) : events);
    } finally {
      await target.close();
    }
  } finally {
    await server.close();
  }
}

async function* tee<T>(events: AsyncIterable<T>, listener: (event: T) => void): AsyncGenerator<T> {
  for await (const event of events) {
    listener(event);
    yield event;
  }
}

test("against an external target without a readable store, a wrong expectedActiveStep fails the turn as an answer check naming the answer's step", async () => {
  const played = await playExternal([{ ...GREETED, expectedActiveStep: "GreetStep" }, ENDED]);
  const first = played.turns[0]!;
  assert.equal(first.outcome, "failed");
  assert.equal(
    first.failure,
    `turn 1 'greet': answer currentStep: the answer says it is on FarewellStep (runStatus running); the turn expects GreetStep; response: "FarewellStep: say anything."`,
  );
  assert.deepEqual(
    first.checks.filter((c) => c.contract === "answer" || c.contract === "persisted"),
    [
      { contract: "persisted", name: "persisted contract", outcome: "skipped", message: NO_SQLITE_PATH },
      {
        contract: "answer",
        name: "currentStep",
        outcome: "failed",
        message: "the answer says it is on FarewellStep (runStatus running); the turn expects GreetStep",
        expected: "GreetStep",
        actual: "FarewellStep",
      },
      { contract: "answer", name: "runStatus", outcome: "passed", expected: "running", actual: "running" },
      { contract: "answer", name: "completed", outcome: "passed", expected: false, actual: false },
    ],
  );
  assert.equal(played.turns[1]!.skipReason, "turn 1 failed");
  assert.equal(played.outcome, "failed");
});

test("against an external target without a readable store, a wrong completed fails the turn on the answer's runStatus and completed flag, naming its step", async () => {
  const played = await playExternal([GREETED, { ...ENDED, completed: false }]);
  const second = played.turns[1]!;
  assert.equal(second.outcome, "failed");
  assert.equal(
    second.failure,
    `turn 2 'bye': answer runStatus: the answer says runStatus "completed" (on FarewellStep); the turn expects running, as its completed is false; ` +
      `answer completed: the answer says completed true (on FarewellStep); the turn expects completed false; response: "The run is over."`,
  );
  assert.deepEqual(
    second.checks.filter((c) => c.contract === "answer").map((c) => [c.name, c.outcome]),
    [
      ["currentStep", "passed"],
      ["runStatus", "failed"],
      ["completed", "failed"],
    ],
  );
});

test("against an external target without a readable store, an event stream's claims are read from its done event and checked", async () => {
  const played = await playExternal([
    {
      ...GREETED,
      expectedActiveStep: "GreetStep",
      accept: "text/event-stream",
      expectContentType: "text/event-stream",
    },
  ]);
  const first = played.turns[0]!;
  assert.equal(first.checks.find((c) => c.name === "expectContentType")?.outcome, "passed");
  assert.equal(
    first.failure,
    `turn 1 'greet': answer currentStep: the answer says it is on FarewellStep (runStatus running); the turn expects GreetStep; response: "FarewellStep: say anything."`,
  );
});

test("against an external target without a readable store, a correct scenario passes on the answer's claims, the persisted contract skipped with its reason and an error turn claiming nothing", async () => {
  const afterEnd = { label: "after the end", input: "again", expectedStatus: 409 };
  const played = await playExternal([GREETED, { ...ENDED, accept: "text/event-stream" }, afterEnd]);
  assert.equal(played.outcome, "passed");
  assert.deepEqual(
    played.turns.map((turn) => [
      turn.outcome,
      turn.checks
        .filter((c) => c.contract === "answer" || c.contract === "persisted")
        .map((c) => `${c.contract} ${c.name} ${c.outcome}`),
    ]),
    [
      [
        "passed",
        [
          "persisted persisted contract skipped",
          "answer currentStep passed",
          "answer runStatus passed",
          "answer completed passed",
        ],
      ],
      [
        "passed",
        [
          "persisted persisted contract skipped",
          "answer currentStep passed",
          "answer runStatus passed",
          "answer completed passed",
        ],
      ],
      ["passed", ["persisted persisted contract skipped"]],
    ],
  );
  for (const turn of played.turns)
    assert.equal(turn.checks.find((c) => c.contract === "persisted")?.message, NO_SQLITE_PATH);
  assert.deepEqual(played.final, { outcome: "skipped", skipReason: NO_SQLITE_PATH, checks: [] });
});

test("against an external target with a readable store the persisted contract compares the answer with the store, and no answer check is made", async () => {
  const passing = await playExternal([GREETED, ENDED], { readableStore: true });
  assert.equal(passing.outcome, "passed");
  assert.equal(passing.final.outcome, "passed");
  for (const turn of passing.turns) {
    assert.deepEqual(
      turn.checks.filter((c) => c.contract === "answer"),
      [],
      `turn ${turn.number}`,
    );
    assert.equal(turn.checks.find((c) => c.name === "answer's currentStep")?.outcome, "passed", `turn ${turn.number}`);
  }

  const failing = await playExternal([{ ...GREETED, expectedActiveStep: "GreetStep" }], { readableStore: true });
  const first = failing.turns[0]!;
  assert.equal(
    first.failure,
    `turn 1 'greet': expected active step GreetStep, stored FarewellStep (runStatus running); response: "FarewellStep: say anything."`,
  );
  assert.deepEqual(
    first.checks.filter((c) => c.contract === "answer"),
    [],
  );
});

test("a failure transcript of an answer check names its kind, in the JSON artifact and in its terminal rendering", async () => {
  const dir = await tempDir("answer-transcript");
  try {
    const writer = new TranscriptWriter(dir.path);
    await playExternal([{ ...GREETED, expectedActiveStep: "GreetStep" }], { transcripts: writer });
    const transcript = JSON.parse(readFileSync(join(dir.path, "relay-contract-failure.json"), "utf8")) as Transcript;
    assert.match(transcript.target.store, /^not read: FLOW_BASE_URL is set but SQLITE_PATH is not/);
    assert.deepEqual(
      transcript.turns[0]!.checks.find((c) => c.outcome === "failed"),
      {
        contract: "answer",
        name: "currentStep",
        outcome: "failed",
        message: "the answer says it is on FarewellStep (runStatus running); the turn expects GreetStep",
        expected: "GreetStep",
        actual: "FarewellStep",
      },
    );
    const rendered = renderTranscript(transcript);
    assert.match(rendered, /^turn 1 'greet': answer currentStep: the answer says it is on FarewellStep/m);
    assert.ok(rendered.includes(`   – persisted persisted contract: ${NO_SQLITE_PATH}\n`), rendered);
    assert.ok(
      rendered.includes(
        "   ✗ answer currentStep: the answer says it is on FarewellStep (runStatus running); the turn expects GreetStep\n",
      ),
      rendered,
    );
  } finally {
    dir.remove();
  }
});

test("a text/csv answer claims no step, so its answer checks are skipped saying so, never passed", async () => {
  const csv = {
    status: 200,
    headers: { "Content-Type": "text/csv; charset=utf-8", CHAT_SESSION_ID: "session-1" },
    body: "said\nhi\n",
  };
  const fake = await FakeChatServer.start({ reply: (reply, request) => (request.accept === "text/csv" ? csv : reply) });
  try {
    const loaded = {
      file: "test/testing/fake.scenario.json",
      name: "fake",
      scenario: {
        flowName: FAKE_FLOW,
        turns: [{ label: "as csv", input: "hi", expectedActiveStep: "AskStep", accept: "text/csv" }],
      },
    };
    const played = await collect(runScenario(loaded, { ...fake.target(), sessions: { unavailable: NO_SQLITE_PATH } }));
    assert.equal(played.turns[0]!.outcome, "passed", played.turns[0]!.failure);
    assert.deepEqual(
      played.turns[0]!.checks.filter((c) => c.contract === "answer"),
      [
        {
          contract: "answer",
          name: "claims",
          outcome: "skipped",
          message: "the text/csv answer carries no JSON, so it claims no step, run status or completion",
        },
      ],
    );
  } finally {
    await fake.close();
  }
});

test("under node:test, a turn that fails its answer check against FLOW_BASE_URL says so in the test's failure", async () => {
  const server = await startTestServer({ flows: relayFlows });
  const dir = await tempDir("answer-node-test");
  try {
    const scenarioFile = join(dir.path, "relay.scenario.json");
    writeFileSync(
      scenarioFile,
      JSON.stringify({ flowName: "RelayFlow", turns: [{ ...GREETED, expectedActiveStep: "GreetStep" }, ENDED] }),
    );
    const spec = join(dir.path, "relay.spec.ts");
    writeFileSync(
      spec,
      [
        `import { describeFlowScenarios } from ${JSON.stringify(join(ROOT, "src", "testing", "index.ts"))};`,
        `import { relayFlows } from ${JSON.stringify(join(ROOT, "test", "support", "relay-flow.ts"))};`,
        `describeFlowScenarios("RelayFlow", { files: [${JSON.stringify(scenarioFile)}], flows: relayFlows, artifactsDir: ${JSON.stringify(dir.path)} });`,
      ].join("\n"),
    );
    const env: NodeJS.ProcessEnv = { ...process.env, FLOW_BASE_URL: server.url };
    for (const name of [
      "NODE_TEST_CONTEXT",
      "SQLITE_PATH",
      "SESSION_STORE",
      "MONGO_URL",
      "FLOW_MODEL",
      "OPENAI_API_KEY",
      "JUDGE",
      "FLOW_REPEAT",
    ])
      delete env[name];
    const child = spawn(process.execPath, ["--import", "tsx", "--test", "--test-reporter=tap", spec], {
      cwd: ROOT,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.resume();
    const code = await new Promise<number | null>((done, fail) => {
      child.on("error", fail);
      child.on("close", done);
    });
    assert.equal(code, 1, stdout);
    assert.match(stdout, /^\s*not ok \d+ - 1\. greet$/m);
    assert.ok(
      stdout.includes(
        "turn 1 'greet': answer currentStep: the answer says it is on FarewellStep (runStatus running); the turn expects GreetStep",
      ),
      stdout,
    );
    assert.match(stdout, /^\s*ok \d+ - 2\. bye # SKIP turn 1 failed$/m);
    assert.match(
      stdout,
      /^\s*ok \d+ - the target starts, serves the flow, and the persisted contract can be checked # SKIP FLOW_BASE_URL is set but SQLITE_PATH is not/m,
    );
  } finally {
    dir.remove();
    await server.close();
  }
});
