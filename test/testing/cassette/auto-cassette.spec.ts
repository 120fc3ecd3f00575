import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { START_TEST } from "../../../src/testing/node-test/scenario-suite.ts";
import type { CassetteFile } from "../../../src/testing/cassette/cassette-file.ts";
import { basicFlowScripts } from "../../fixtures/flows/index.ts";
import { basicFlowProject } from "../../support/basic-flow-project.ts";
import { result, runFlowcheck, tapResults, type ChildRun } from "../../support/child-run.ts";
import { startFakeOpenAI, type FakeOpenAI } from "../../support/fake-openai-server.ts";

// FLOW_MODEL=auto, played by `flowcheck test <file>` in a project of its own against a local
// OpenAI-compatible server: a conversation with no cassette records it (with a key, never under
// CI), one with a cassette replays it with no key and no network, and a mismatch fails without
// recording over the cassette.

const GREETING = {
  flowName: "BasicFlow",
  turns: [
    {
      label: "name rejected",
      input: "John Doe",
      expectedResponse: "The assistant should reject John Doe as a placeholder and ask for the user's real name.",
      expectedActiveStep: "NameStep",
    },
    // An app booted again at another time keeps the conversation's tape, recording or replaying.
    {
      label: "name accepted",
      input: "John Wick",
      clockAt: "2027-07-15T00:00:00.000Z",
      expectedActiveStep: "WeatherStep",
      responseMustInclude: ["John Wick"],
    },
  ],
};
const RECORDED = "scenarios/greeting.scenario.json";
const RECORDED_CASSETTE = "scenarios/greeting.cassette.json";
// Never recorded: the runs that must not record play this one.
const FRESH = "scenarios/fresh.scenario.json";
const FRESH_CASSETTE = "scenarios/fresh.cassette.json";
// Recorded by auto, and failing: its turn 2 expects a step the flow does not reach.
const FAILING = "scenarios/failing.scenario.json";
const FAILING_CASSETTE = "scenarios/failing.cassette.json";
const TESTS = [START_TEST, "1. name rejected", "1. name rejected · judge", "2. name accepted", "final state"];

describe("FLOW_MODEL=auto: cassettes that record themselves", () => {
  let project: { path: string; remove: () => void };
  let fake: FakeOpenAI;
  let recording: ChildRun;
  let recordingRequests: number;
  let recorded: string;

  /** `flowcheck test <file>` in the project with FLOW_MODEL=auto, the provider at the fake (running or stopped). */
  function auto(file: string, env: Record<string, string> = {}): Promise<ChildRun> {
    return runFlowcheck(
      ["test", file, "--test-reporter", "tap"],
      {
        FLOW_MODEL: "auto",
        OPENAI_BASE_URL: fake.baseURL,
        OPENAI_MAX_RETRIES: "0",
        OPENAI_TIMEOUT_MS: "5000",
        ...env,
      },
      undefined,
      project.path,
    );
  }

  /** The requests the fake got during `run`. */
  async function counted(run: () => Promise<ChildRun>): Promise<ChildRun & { requests: number }> {
    const before = fake.requests.length;
    const done = await run();
    return { ...done, requests: fake.requests.length - before };
  }

  before(async () => {
    const failing = {
      ...GREETING,
      turns: [GREETING.turns[0], { ...GREETING.turns[1], expectedActiveStep: "AddressStep" }],
    };
    project = await basicFlowProject(
      { "greeting.scenario.json": GREETING, "fresh.scenario.json": GREETING, "failing.scenario.json": failing },
      false,
    );
    fake = await startFakeOpenAI(Object.values(basicFlowScripts));
    recording = await auto(RECORDED, { OPENAI_API_KEY: "test-key" });
    recordingRequests = fake.requests.length;
    recorded = readFileSync(join(project.path, RECORDED_CASSETTE), "utf8");
  });

  after(async () => {
    await fake.close();
    project.remove();
  });

  test("with a key and no cassette, auto records it from the server and says to commit it", () => {
    assert.equal(recording.code, 0, recording.stdout + recording.stderr);
    const results = tapResults(recording.stdout);
    for (const name of TESTS) assert.equal(result(results, name).ok, true, name);
    const cassette = JSON.parse(recorded) as CassetteFile;
    assert.deepEqual(
      cassette.calls.map((call) => call.kind),
      ["model", "model", "judge", "model", "model"],
    );
    assert.equal(recordingRequests, cassette.calls.length, "every taped call was a request to the server");
    assert.match(recording.stdout, new RegExp(`^cassettes recorded, to commit: ${RECORDED_CASSETTE}$`, "m"));
    const written = JSON.parse(readFileSync(join(project.path, "test", ".tmp", "run-results.json"), "utf8"));
    assert.deepEqual(written.conversations[0].recorded, { cassette: RECORDED_CASSETTE, saved: true });
  });

  test("a conversation that fails while auto records it is not saved, and the summary says so", async () => {
    const run = await auto(FAILING, { OPENAI_API_KEY: "test-key" });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.equal(result(tapResults(run.stdout), "2. name accepted").ok, false);
    assert.equal(existsSync(join(project.path, FAILING_CASSETTE)), false);
    assert.match(
      run.stdout,
      new RegExp(
        `^cassettes not saved, their conversations failed \\(FLOW_MODEL=auto records them again\\): ${FAILING_CASSETTE}$`,
        "m",
      ),
    );
    assert.doesNotMatch(run.stdout, /cassettes recorded, to commit/);
  });

  test("CI=true with a missing cassette fails with how to record it locally, and calls nothing", async () => {
    const run = await counted(() => auto(FRESH, { CI: "true", OPENAI_API_KEY: "test-key" }));
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.equal(run.requests, 0);
    assert.equal(
      result(tapResults(run.stdout), START_TEST).error,
      `FLOW_MODEL=auto has no cassette for ${FRESH}: ${FRESH_CASSETTE} does not exist, and under CI a cassette is never recorded: ` +
        `run \`FLOW_MODEL=auto npm run test:flows -- ${FRESH}\` (or \`npx flowcheck test ${FRESH}\`) locally with a key and commit the cassette.`,
    );
    assert.equal(existsSync(join(project.path, FRESH_CASSETTE)), false);
  });

  test("locally without a key a missing cassette fails saying a key is needed to record it", async () => {
    const run = await counted(() => auto(FRESH));
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.equal(run.requests, 0);
    assert.equal(
      result(tapResults(run.stdout), START_TEST).error,
      `FLOW_MODEL=auto has no cassette for ${FRESH}: ${FRESH_CASSETTE} does not exist, and recording it needs a key: ` +
        "set OPENAI_API_KEY (any value for a local server that ignores it) and run it again; FLOW_MODEL=auto then " +
        "records the cassette, and replays it from then on.",
    );
    assert.equal(existsSync(join(project.path, FRESH_CASSETTE)), false);
  });

  test("a repeat of a conversation that auto would record is refused, naming the scenario", async () => {
    const run = await counted(() => auto(FRESH, { FLOW_REPEAT: "2", OPENAI_API_KEY: "test-key" }));
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.equal(run.requests, 0);
    assert.match(
      result(tapResults(run.stdout), "BasicFlow: fresh × 2 is recorded once").error ?? "",
      new RegExp(
        `^BasicFlow: fresh has no cassette \\(${FRESH_CASSETTE}\\), so FLOW_MODEL=auto would record it, and repeat: 2 would write it 2 times\\.`,
      ),
    );
    assert.equal(existsSync(join(project.path, FRESH_CASSETTE)), false);
  });

  test("an edited request fails naming the difference, and auto never records over the cassette", async () => {
    const cassette = JSON.parse(recorded) as CassetteFile;
    const first = cassette.calls[0]!.request as { system: string };
    first.system = first.system.replace("placeholder", "made-up");
    const edited = `${JSON.stringify(cassette, null, 2)}\n`;
    writeFileSync(join(project.path, RECORDED_CASSETTE), edited);
    try {
      // With a key and the server up, a recording would succeed: it must not happen.
      const run = await counted(() => auto(RECORDED, { OPENAI_API_KEY: "test-key" }));
      assert.equal(run.code, 1, run.stdout + run.stderr);
      assert.equal(run.requests, 0);
      const turn = result(tapResults(run.stdout), "1. name rejected");
      assert.equal(turn.ok, false);
      assert.match(
        turn.error ?? "",
        /cassette_mismatch: Replay of scenarios\/greeting\.cassette\.json: call 1 \(turn 1 'name rejected', BasicFlow\/NameStep\) differs from the recording in system:\n {2}recorded: .*made-up.*\n {2}now: {6}.*placeholder.*\nFLOW_MODEL=auto never records over a cassette: if the change is intended, record it again on purpose with FLOW_MODEL=record\./,
      );
      assert.equal(readFileSync(join(project.path, RECORDED_CASSETTE), "utf8"), edited);
    } finally {
      writeFileSync(join(project.path, RECORDED_CASSETTE), recorded);
    }
  });

  describe("with the cassette recorded and the server stopped", () => {
    before(() => fake.close());

    test("auto replays it with no key, passes, and leaves it as it was", async () => {
      const run = await auto(RECORDED);
      assert.equal(run.code, 0, run.stdout + run.stderr);
      const results = tapResults(run.stdout);
      for (const name of TESTS) assert.equal(result(results, name).ok, true, name);
      assert.match(run.stdout, /# judge: 0 calls made, 0 cached, 1 replayed/);
      assert.doesNotMatch(run.stdout, /cassettes (recorded|not saved)/);
      assert.equal(readFileSync(join(project.path, RECORDED_CASSETTE), "utf8"), recorded);
    });

    test("auto replays every repeat of a recorded conversation", async () => {
      const run = await auto(RECORDED, { FLOW_REPEAT: "2" });
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.equal(result(tapResults(run.stdout), "final state").ok, true);
      assert.equal(readFileSync(join(project.path, RECORDED_CASSETTE), "utf8"), recorded);
    });
  });
});
