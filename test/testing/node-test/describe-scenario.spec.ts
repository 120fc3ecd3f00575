import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join, relative, resolve } from "node:path";
import { describe, test } from "node:test";
import type { Transcript } from "../../../src/testing/index.ts";
import { fixtureScenario } from "../../support/fixture-scenario.ts";
import { writeScenarioSpec } from "../../support/scenario-spec.ts";
import type { RunResults } from "../../../src/testing/report/run-results.ts";
import { tempDir } from "../../support/temp-path.ts";
import { turnLocation } from "../../support/turn-location.ts";
import { FakeChatServer, jsonReply } from "../../support/fake-chat-server.ts";
import { result, tapResults } from "../../support/child-run.ts";

// Each test writes a spec file that calls describeFlowScenarios with one file (`files`) and runs it with node:test in a child
// process, as `npm run test:flows` would, then reads its TAP output and its artifacts.

const ROOT = resolve(import.meta.dirname, "..", "..", "..");
const BASIC_FLOW_FILE = fixtureScenario("basic-flow");
const NO_JUDGE = "no OPENAI_API_KEY is set, so no LLM judge can be reached and expectedResponse is not graded";
const START_TEST = "the target starts, serves the flow, and the persisted contract can be checked";
const TURN_3_RESPONSE = '"Today: LA 72°F, NYC 64°F. What is your US postal address, with the ZIP code?"';

interface ChildRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node <args>` in the project folder, without this runner's test context or a target of its own; `extra` is added to its environment. */
function runNode(args: string[], extra: Record<string, string> = {}, cwd = ROOT): Promise<ChildRun> {
  const env = { ...process.env };
  for (const name of [
    "NODE_TEST_CONTEXT",
    "FLOW_BASE_URL",
    "SQLITE_PATH",
    "SESSION_STORE",
    "FLOW_MODEL",
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "JUDGE",
    "FLOW_REPEAT",
  ])
    delete env[name];
  Object.assign(env, extra);
  const child = spawn(process.execPath, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  return new Promise((resolvePromise, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolvePromise({ code, stdout, stderr }));
  });
}

function runSpec(spec: string, options: string[] = [], extra: Record<string, string> = {}): Promise<ChildRun> {
  return runNode(["--import", "tsx", "--test", "--test-reporter=tap", ...options, spec], extra);
}

/** The BasicFlow scenario with its third turn expecting WeatherStep, where the flow is on AddressStep. */
function writeWrongStepScenario(dir: string): string {
  const scenario = JSON.parse(readFileSync(BASIC_FLOW_FILE, "utf8")) as {
    $schema?: string;
    turns: { expectedActiveStep?: string }[];
  };
  delete scenario.$schema;
  scenario.turns[2]!.expectedActiveStep = "WeatherStep";
  const file = join(dir, "wrong-step.scenario.json");
  writeFileSync(file, JSON.stringify(scenario, null, 2));
  return file;
}

// Each test has its own folder, child process and fake server, so they run side by side.
describe("a scenario played by describeFlowScenarios in a child node:test run", { concurrency: 3 }, () => {
  test("a scenario whose third turn expects the wrong step fails that turn with the message and the transcript, and skips the rest", async () => {
    const dir = await tempDir("describe-scenario");
    try {
      // Run by flowcheck test in the temporary folder, whose test/.tmp is then the run's: its results land there.
      const artifacts = join(dir.path, "test", ".tmp");
      const scenarioFile = writeWrongStepScenario(dir.path);
      const spec = writeScenarioSpec(dir.path, "wrong-step", scenarioFile, artifacts);
      const run = await runNode(
        [join(ROOT, "src", "cli", "flowcheck.mjs"), "test", spec, "--test-reporter=tap"],
        {},
        dir.path,
      );
      assert.equal(run.code, 1, run.stderr);
      const results = tapResults(run.stdout);

      const artifact = join(artifacts, "wrong-step-contract-failure.json");
      const shown = relative(dir.path, artifact);
      const third = result(results, "3. two cities");
      assert.equal(third.ok, false);
      assert.equal(
        third.error,
        `${turnLocation(scenarioFile, "two cities", dir.path)}: turn 3 'two cities': expected active step WeatherStep, stored AddressStep (runStatus running); response: ${TURN_3_RESPONSE}\n` +
          `Transcript: ${shown} (flowcheck transcript ${shown})`,
      );

      assert.deepEqual(
        [START_TEST, "1. name rejected", "2. name accepted"].map((name) => [
          name,
          result(results, name).ok,
          result(results, name).directive,
        ]),
        [
          [START_TEST, true, undefined],
          ["1. name rejected", true, undefined],
          ["2. name accepted", true, undefined],
        ],
      );
      for (const name of [
        "4. bad zip stays",
        "5. address completes the flow",
        "6. completed session refuses more",
        "final state",
      ]) {
        assert.equal(result(results, name).directive, "SKIP turn 3 failed", name);
      }
      for (const name of ["1. name rejected · judge", "2. name accepted · judge"]) {
        assert.equal(result(results, name).directive, `SKIP ${NO_JUDGE}`, name);
      }
      assert.equal(result(results, "3. two cities · judge").directive, "SKIP turn 3 failed its contracts");
      assert.equal(result(results, "4. bad zip stays · judge").directive, "SKIP turn 3 failed");
      assert.match(run.stdout, /^# pass 3$/m);
      assert.match(run.stdout, /^# fail 1$/m);

      const transcript = JSON.parse(readFileSync(artifact, "utf8")) as Transcript;
      assert.equal(transcript.kind, "contract");
      assert.equal(transcript.outcome, "failed");
      assert.equal(transcript.failure, third.error!.split("\n")[0]);
      assert.deepEqual(
        transcript.turns.map((turn) => turn.outcome),
        ["passed", "passed", "failed", "skipped", "skipped", "skipped"],
      );
      const { stored, ...final } = transcript.final!;
      assert.deepEqual(final, { outcome: "skipped", skipReason: "turn 3 failed", checks: [] });
      assert.equal(stored?.turns, 3, "the transcript keeps the whole session as the failed turn left it");

      const rendered = await runNode(["src/cli/flowcheck.mjs", "transcript", artifact]);
      assert.equal(rendered.code, 0, rendered.stderr);
      const lines = rendered.stdout.split("\n");
      assert.match(lines[0]!, /^BasicFlow · wrong-step \(.*wrong-step\.scenario\.json\) — FAILED \(contract\)$/);
      assert.match(rendered.stdout, /^── 3\. two cities ✗ {2}200 · \d+\.\d ms$/m);
      assert.ok(
        lines.includes(
          "   ✗ persisted expectedActiveStep: expected active step WeatherStep, stored AddressStep (runStatus running)",
        ),
        rendered.stdout,
      );
      assert.ok(lines.includes("   stored     AddressStep · running · 3 turns"), rendered.stdout);
      assert.ok(lines.includes("── 4. bad zip stays – skipped: turn 3 failed"), rendered.stdout);
      assert.ok(lines.includes("── final state – skipped: turn 3 failed"), rendered.stdout);

      // The run's results render the same conversation the same way, the failed one by default.
      const runResults = JSON.parse(readFileSync(join(artifacts, "run-results.json"), "utf8")) as RunResults;
      assert.equal(runResults.conversations.length, 1);
      const fromResults = await runNode(["src/cli/flowcheck.mjs", "transcript", join(artifacts, "run-results.json")]);
      assert.equal(fromResults.code, 0, fromResults.stderr);
      const resultLines = fromResults.stdout.split("\n");
      assert.equal(resultLines[0], lines[0]);
      for (const line of lines.filter((line) => /^ {3}(✗|stored|user|assistant|key)|^── /.test(line)))
        assert.ok(resultLines.includes(line), `${line}\n${fromResults.stdout}`);
      const unknown = await runNode([
        "src/cli/flowcheck.mjs",
        "transcript",
        join(artifacts, "run-results.json"),
        "no-such",
      ]);
      assert.equal(unknown.code, 2);
      assert.match(unknown.stderr, /has no conversation "no-such"; it has wrong-step\./);
    } finally {
      dir.remove();
    }
  });

  test("a name pattern that selects a later turn alone still plays the earlier turns first, and the selected turn passes", async () => {
    const dir = await tempDir("describe-scenario");
    try {
      const artifacts = join(dir.path, "artifacts");
      const spec = writeScenarioSpec(dir.path, "basic-flow", BASIC_FLOW_FILE, artifacts);
      const run = await runSpec(spec, ["--test-name-pattern=^4\\. bad zip stays$"]);
      assert.equal(run.code, 0, run.stdout + run.stderr);
      const results = tapResults(run.stdout);
      // On a fresh session the flow is on NameStep: this turn passes only after turns 1 to 3 were played.
      assert.deepEqual(result(results, "4. bad zip stays"), { ok: true, directive: undefined, error: undefined });
      // The pattern leaves the other turns out of the report, neither passed nor skipped: the counts
      // show that none of them ran as a test of its own.
      assert.match(run.stdout, /^# pass 1$/m);
      assert.match(run.stdout, /^# skipped 0$/m);
      assert.equal(existsSync(artifacts), false);
    } finally {
      dir.remove();
    }
  });

  test("a name pattern that selects a turn after a failing one fails that turn with the earlier failure, so a filtered run is not green", async () => {
    const dir = await tempDir("describe-scenario");
    try {
      const artifacts = join(dir.path, "artifacts");
      const spec = writeScenarioSpec(dir.path, "wrong-step", writeWrongStepScenario(dir.path), artifacts);
      const run = await runSpec(spec, ["--test-name-pattern=^4\\. bad zip stays$"]);
      assert.equal(run.code, 1, run.stdout + run.stderr);
      const fourth = result(tapResults(run.stdout), "4. bad zip stays");
      assert.equal(fourth.ok, false);
      assert.match(
        fourth.error ?? "",
        /^[^ ]+wrong-step\.scenario\.json:\d+: turn 3 'two cities': expected active step WeatherStep, stored AddressStep \(runStatus running\); response: .* \(played before turn 4, which needs it\)$/m,
      );
      assert.ok(existsSync(join(artifacts, "wrong-step-contract-failure.json")));
    } finally {
      dir.remove();
    }
  });

  test("a spec whose scenario file is invalid fails one test named after the file and runs no turn", async () => {
    const dir = await tempDir("describe-scenario");
    try {
      const file = join(dir.path, "typo.scenario.json");
      writeFileSync(
        file,
        JSON.stringify({
          flowName: "BasicFlow",
          turns: [{ label: "name accepted", input: "John Wick", expectedActivStep: "WeatherStep" }],
        }),
      );
      const artifacts = join(dir.path, "artifacts");
      mkdirSync(artifacts);
      const run = await runSpec(writeScenarioSpec(dir.path, "typo", file, artifacts));
      assert.equal(run.code, 1, run.stderr);
      const results = tapResults(run.stdout);
      assert.deepEqual([...results.keys()], [`${file} is a valid scenario`]);
      assert.equal(
        result(results, `${file} is a valid scenario`).error,
        `${file} is not a valid scenario (1 problem); no turn was run:\n` +
          '- turns[0].expectedActivStep (turn "name accepted"): `expectedActivStep` is not a known key; did you mean `expectedActiveStep`?',
      );
      assert.match(run.stdout, /^# tests 1$/m);
      assert.deepEqual(readdirSync(artifacts), []);
    } finally {
      dir.remove();
    }
  });

  test("a target that serves another version of the flow fails the first test with every place the file names a missing step, and no turn is played", async () => {
    const dir = await tempDir("describe-scenario");
    // An older BasicFlow, before AddressStep: the scenario's turns 3 to 5 and its final state name it.
    const fake = await FakeChatServer.start({
      flows: jsonReply(200, { flows: [{ name: "BasicFlow", steps: ["NameStep", "WeatherStep"] }] }),
    });
    try {
      const spec = writeScenarioSpec(dir.path, "older-flow", BASIC_FLOW_FILE, join(dir.path, "artifacts"));
      const run = await runSpec(spec, [], { FLOW_BASE_URL: fake.url });
      assert.equal(run.code, 1, run.stderr);
      const results = tapResults(run.stdout);
      const start = result(results, START_TEST);
      assert.equal(start.ok, false);
      const missing = "the target's BasicFlow has no step AddressStep; its steps are NameStep, WeatherStep.";
      assert.equal(
        start.error,
        [
          `turns[2].expectedActiveStep (turn "two cities"): ${missing}`,
          `turns[3].expectedActiveStep (turn "bad zip stays"): ${missing}`,
          `turns[4].expectedActiveStep (turn "address completes the flow"): ${missing}`,
          `finalState.AddressStep: ${missing}`,
          `finalChildren[0].parentStep: ${missing}`,
          `finalChildren[1].parentStep: ${missing}`,
        ].join("\n"),
      );
      const why =
        "SKIP the target does not serve this scenario's flow as the file expects; the first test has the problems";
      for (const name of [
        "1. name rejected",
        "1. name rejected · judge",
        "6. completed session refuses more",
        "final state",
      ]) {
        assert.equal(result(results, name).directive, why, name);
      }
      assert.deepEqual(fake.requests, [], "no chat request reached the server");
    } finally {
      await fake.close();
      dir.remove();
    }
  });

  test("a target that never answers fails the first test once FLOW_TURN_TIMEOUT_MS passes, and the turns are skipped instead of hanging", async () => {
    const dir = await tempDir("describe-scenario");
    const silent = createServer((req) => req.resume());
    await new Promise<void>((resolvePromise) => silent.listen(0, "127.0.0.1", resolvePromise));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    try {
      const spec = writeScenarioSpec(dir.path, "silent", BASIC_FLOW_FILE, join(dir.path, "artifacts"));
      const run = await runSpec(spec, [], { FLOW_BASE_URL: url, FLOW_TURN_TIMEOUT_MS: "300" });
      assert.equal(run.code, 1, run.stderr);
      const results = tapResults(run.stdout);
      assert.equal(
        result(results, START_TEST).error,
        `GET ${url}/ai/flows gave no whole answer within 300 ms (FLOW_TURN_TIMEOUT_MS); the server may be stuck, or a live turn slower than that: raise FLOW_TURN_TIMEOUT_MS if so.`,
      );
      assert.equal(
        result(results, "1. name rejected").directive,
        "SKIP the target does not serve this scenario's flow as the file expects; the first test has the problems",
      );
    } finally {
      const closed = new Promise<void>((resolvePromise) => silent.close(() => resolvePromise()));
      silent.closeAllConnections();
      await closed;
      dir.remove();
    }
  });

  test("FLOW_HEADERS go with the first test's GET /ai/flows and with every turn, and the failure transcript holds them redacted", async () => {
    const dir = await tempDir("describe-scenario");
    const steps = ["NameStep", "WeatherStep", "AddressStep"];
    // It lists BasicFlow but answers as its own echoing flow, so turn 1 fails and a transcript is written.
    const fake = await FakeChatServer.start({ flows: jsonReply(200, { flows: [{ name: "BasicFlow", steps }] }) });
    try {
      const artifacts = join(dir.path, "artifacts");
      const spec = writeScenarioSpec(dir.path, "with-headers", BASIC_FLOW_FILE, artifacts);
      const run = await runSpec(spec, [], {
        FLOW_BASE_URL: fake.url,
        FLOW_HEADERS: JSON.stringify({ Authorization: "Bearer s3cret-token", "X-Tenant": "acme" }),
      });
      assert.equal(run.code, 1, run.stderr);
      // The flow is served; without SQLITE_PATH the target's store cannot be read, which is a skip.
      assert.match(
        result(tapResults(run.stdout), START_TEST).directive ?? "",
        /^SKIP FLOW_BASE_URL is set but SQLITE_PATH is not/,
      );
      const [listing, ...chats] = fake.received;
      assert.deepEqual([listing?.method, listing?.url], ["GET", "/ai/flows"]);
      assert.ok(chats.length > 0 && chats.every(({ method, url }) => method === "POST" && url === "/ai/chat"));
      for (const { headers } of fake.received)
        assert.deepEqual([headers["authorization"], headers["x-tenant"]], ["Bearer s3cret-token", "acme"]);
      // Turn 3 fails on the echo; the transcript is named after the scenario file.
      const transcript = readFileSync(join(artifacts, "basic-flow-contract-failure.json"), "utf8");
      assert.doesNotMatch(transcript, /s3cret-token|acme/);
      assert.match(transcript, /"X-Tenant": "\[redacted\]"/);
    } finally {
      await fake.close();
      dir.remove();
    }
  });

  test("with FLOW_REPEAT=2 each turn, judge and the final state is one test over both runs, saying how often it passed", async () => {
    const dir = await tempDir("describe-scenario");
    try {
      const run = await runSpec(
        writeScenarioSpec(dir.path, "repeated", BASIC_FLOW_FILE, join(dir.path, "artifacts")),
        [],
        { FLOW_REPEAT: "2" },
      );
      assert.equal(run.code, 0, run.stdout + run.stderr);
      const results = tapResults(run.stdout);
      assert.match(run.stdout, /# Subtest: BasicFlow: basic-flow × 2\n/);
      for (const name of [
        "1. name rejected",
        "5. address completes the flow",
        "6. completed session refuses more",
        "final state",
      ]) {
        assert.deepEqual([result(results, name).ok, result(results, name).directive], [true, undefined], name);
      }
      assert.match(run.stdout, /# turn 1 'name rejected': passed 2 of 2 runs \(100%\)/);
      assert.equal(result(results, "1. name rejected · judge").directive, `SKIP ${NO_JUDGE}`);
    } finally {
      dir.remove();
    }
  });

  test("with FLOW_REPEAT=2 a turn that fails in both runs fails with each run's reason, and what both runs skipped after it is skipped", async () => {
    const dir = await tempDir("describe-scenario");
    try {
      const run = await runSpec(
        writeScenarioSpec(
          dir.path,
          "repeated-wrong-step",
          writeWrongStepScenario(dir.path),
          join(dir.path, "artifacts"),
        ),
        [],
        { FLOW_REPEAT: "2" },
      );
      assert.equal(run.code, 1, run.stdout + run.stderr);
      const results = tapResults(run.stdout);
      const third = result(results, "3. two cities");
      assert.equal(third.ok, false);
      assert.match(
        third.error ?? "",
        /^[^ ]+\.scenario\.json:\d+: turn 3 'two cities' passed in 0 of 2 runs, below the pass rate 1 \(FLOW_PASS_RATE\): run 1: .*expected active step WeatherStep, stored AddressStep.*; run 2: /,
      );
      for (const name of ["4. bad zip stays", "6. completed session refuses more", "final state"]) {
        assert.equal(result(results, name).directive, "SKIP turn 3 failed", name);
      }
    } finally {
      dir.remove();
    }
  });
});
