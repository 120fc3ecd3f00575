import assert from "node:assert/strict";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { UserTurnRequest } from "../../../src/engine/scripted-user.ts";
import type { CassetteFile } from "../../../src/testing/cassette/cassette-file.ts";
import { basicFlowScripts } from "../../fixtures/flows/index.ts";
import { result, runSpec, tapResults, writeSpec, type ChildRun } from "../../support/child-run.ts";
import { startFakeOpenAI, type FakeOpenAI } from "../../support/fake-openai-server.ts";
import { ADA_SCENARIO, ADA_TEST, ada, isUserRequest, playUser } from "../../support/fake-simulated-user.ts";
import { tempDir } from "../../support/temp-path.ts";

// FLOW_MODEL=record tapes a simulated conversation's model, user and judge calls; FLOW_MODEL=replay
// plays it back with no key and no network, and an answer of the flow that differs from the
// recording fails the replay at the user's next message, naming the answer and the difference.

const GREETING = "Nice to meet you, Ada Lovelace. Which two cities should I check? Give two aliases, like LA, NYC.";

describe("a simulated BasicFlow conversation on a cassette", { concurrency: 2 }, () => {
  let fake: FakeOpenAI;
  let dir: { path: string; remove: () => void };
  let recording: ChildRun;
  let recorded: CassetteFile;
  let userRequests: number;

  before(async () => {
    fake = await startFakeOpenAI(Object.values(basicFlowScripts));
    playUser(fake, ada);
    dir = await tempDir("simulated-cassette");
    const scenario = join(dir.path, "simulated.scenario.json");
    copyFileSync(ADA_SCENARIO, scenario);
    recording = await runSpec(writeSpec(dir.path, scenario, join(dir.path, "artifacts")), {
      FLOW_MODEL: "record",
      OPENAI_API_KEY: "test-key",
      OPENAI_BASE_URL: fake.baseURL,
    });
    userRequests = fake.requests.filter(isUserRequest).length;
    // Stopped before any replay: a replay that asked anything would fail to connect.
    await fake.close();
    recorded = JSON.parse(readFileSync(join(dir.path, "simulated.cassette.json"), "utf8")) as CassetteFile;
  });

  after(() => dir.remove());

  /** A folder of its own with the scenario and the recording, edited by `edit`, replayed with no key. */
  async function replay(signal: AbortSignal, edit: (file: CassetteFile) => void = () => {}): Promise<ChildRun> {
    const copy = await tempDir("simulated-replay");
    try {
      const scenario = join(copy.path, "simulated.scenario.json");
      copyFileSync(ADA_SCENARIO, scenario);
      const cassette = structuredClone(recorded);
      edit(cassette);
      writeFileSync(join(copy.path, "simulated.cassette.json"), JSON.stringify(cassette));
      // The stopped fake's address: any request would be refused, and fail the run.
      return await runSpec(
        writeSpec(copy.path, scenario, join(copy.path, "artifacts")),
        { FLOW_MODEL: "replay", OPENAI_BASE_URL: fake.baseURL },
        signal,
      );
    } finally {
      copy.remove();
    }
  }

  test("FLOW_MODEL=record passes and tapes the model's, the user's and the judge's calls, each user call with its request and reply", () => {
    assert.equal(recording.code, 0, recording.stdout + recording.stderr);
    assert.match(
      recording.stdout,
      /live gpt-4o-mini \(recording\) wrote 3 messages; ended: .*the flow completed on turn 3/,
    );
    const kinds = recorded.calls.map((call) => call.kind);
    assert.deepEqual([...new Set(kinds)].sort(), ["judge", "model", "user"]);
    assert.equal(kinds.at(-1), "judge");
    const users = recorded.calls.filter((call) => call.kind === "user");
    assert.equal(users.length, userRequests);
    assert.deepEqual(
      users.map((call) => [call.turn, call.label, call.reply]),
      [
        [1, "simulated user message 1", { message: "Ada Lovelace", done: false }],
        [2, "simulated user message 2", { message: "LA, NYC", done: false }],
        [3, "simulated user message 3", { message: "1600 SW Murray Blvd, Beaverton, OR 97006", done: false }],
      ],
    );
    const second = users[1]!.request as UserTurnRequest;
    assert.equal(second.turn, 2);
    assert.equal(second.user.persona, "Ada Lovelace, a mathematician who answers what she is asked and no more.");
    assert.deepEqual(second.conversation, [
      { role: "user", content: "Ada Lovelace" },
      { role: "assistant", content: GREETING },
    ]);
  });

  test("FLOW_MODEL=replay passes with no key and the server stopped, the user played from the tape", async (t) => {
    const run = await replay(t.signal);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const results = tapResults(run.stdout);
    assert.equal(result(results, ADA_TEST).ok, true);
    assert.equal(result(results, "final state").ok, true);
    assert.match(run.stdout, /replay wrote 3 messages; ended: .*the flow completed on turn 3/);
  });

  test("a flow's answer that differs from the recording fails the replay at the user's next message, naming the answer and the difference", async (t) => {
    const run = await replay(t.signal, (cassette) => {
      const reply = cassette.calls.find(
        (call) => call.kind === "model" && (call.reply as { content?: string }).content === GREETING,
      );
      assert.ok(reply, "the greeting is on the tape");
      (reply.reply as { content: string }).content = GREETING.replace("Nice to meet you", "Hello");
    });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const simulation = result(tapResults(run.stdout), ADA_TEST);
    assert.equal(simulation.ok, false);
    assert.match(
      simulation.error ?? "",
      /call \d+ \(turn 2 'simulated user message 2', user\) differs from the recording in conversation\[1\]\.content \(the assistant's answer to turn 1\):\n {2}recorded: "Nice to meet you, Ada Lovelace\. Which two cities.*"\n {2}now: {6}"Hello, Ada Lovelace\. Which two cities.*"/,
    );
  });
});
