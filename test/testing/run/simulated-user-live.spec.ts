import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import type { Scenario } from "../../../src/testing/index.ts";
import type { UserMaterial } from "../../../src/testing/user/user-prompt.ts";
import { basicFlowScripts } from "../../fixtures/flows/index.ts";
import { result, runSpec, tapResults, writeScenario, writeSpec, type ChildRun } from "../../support/child-run.ts";
import { startFakeOpenAI } from "../../support/fake-openai-server.ts";
import { ADA_SCENARIO, ADA_TEST, ada, isUserRequest, playUser, userReply } from "../../support/fake-simulated-user.ts";
import { tempDir } from "../../support/temp-path.ts";

// The done-when, live: a local OpenAI-compatible server plays both BasicFlow's model (from
// its scripts) and the model that plays the user (from a script of the test's), and the scenario
// runs through a flow suite in a child process, FLOW_MODEL=live.

function fixture(): Scenario {
  return JSON.parse(readFileSync(ADA_SCENARIO, "utf8")) as Scenario;
}

/**
 * `scenario` played live in a child run against a fake whose user says what `say` returns; with
 * how many requests the user's model got and the system prompt of each judge request.
 */
async function playLive(
  scenario: Scenario,
  say: (material: UserMaterial) => string,
  signal: AbortSignal,
): Promise<ChildRun & { userRequests: number; judged: string[] }> {
  const dir = await tempDir("simulated-live");
  const fake = await startFakeOpenAI(Object.values(basicFlowScripts));
  playUser(fake, say);
  try {
    const file = writeScenario(dir.path, "simulated", scenario);
    const run = await runSpec(
      writeSpec(dir.path, file, join(dir.path, "artifacts")),
      { FLOW_MODEL: "live", OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: fake.baseURL },
      signal,
    );
    const userRequests = fake.requests.filter(isUserRequest).length;
    const judged = fake.requests
      .filter((request) => request.response_format?.type === "json_object" && !isUserRequest(request))
      .map((request) => request.messages[0]!.content!);
    return { ...run, userRequests, judged };
  } finally {
    await fake.close();
    dir.remove();
  }
}

describe("a simulated BasicFlow conversation against a local OpenAI-compatible server", { concurrency: 4 }, () => {
  test("reaches its goal and passes on the stored state, its user and the judge played by the server", async (t) => {
    const run = await playLive(fixture(), ada, t.signal);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const results = tapResults(run.stdout);
    assert.equal(result(results, ADA_TEST).ok, true);
    assert.equal(result(results, "final state").ok, true);
    for (const turn of [
      "1. user: Ada Lovelace",
      "2. user: LA, NYC",
      "3. user: 1600 SW Murray Blvd, Beaverton, OR 97006",
    ])
      assert.equal(result(results, turn).ok, true, turn);
    assert.match(run.stdout, /live gpt-4o-mini wrote 3 messages; ended: .*the flow completed on turn 3/);
    // The flow completed on the address: the user was asked three times, the judge once, on the whole conversation.
    assert.equal(run.userRequests, 3);
    assert.equal(run.judged.length, 1);
    assert.match(run.judged[0]!, /^You grade a whole conversation /);
  });

  test("with a finalState the flow never stores it fails, naming the key", async (t) => {
    const scenario = fixture();
    scenario.success!.finalState = { NameStep: { name: "Ada Lovelace", nickname: "Ada" } };
    const run = await playLive(scenario, ada, t.signal);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const final = result(tapResults(run.stdout), "final state");
    assert.equal(final.ok, false);
    assert.match(final.error ?? "", /success\.finalState\.NameStep: .*steps\.NameStep\.nickname/);
  });

  test("a user that never says it is done ends at maxTurns, with that reason", async (t) => {
    const scenario = fixture();
    scenario.user!.maxTurns = 2;
    scenario.success = { completed: false, finalState: { NameStep: { name: "Ada Lovelace" } } };
    const run = await playLive(scenario, () => userReply("Ada Lovelace"), t.signal);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(
      run.stdout,
      /live gpt-4o-mini wrote 2 messages; ended: .*the user wrote 2 messages \(maxTurns\) without saying it was done/,
    );
    assert.equal(run.userRequests, 2);
  });

  test("a user model that answers non-JSON fails the conversation, quoting what it sent", async (t) => {
    const run = await playLive(fixture(), () => "Sure! I'm Ada.", t.signal);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const simulation = result(tapResults(run.stdout), ADA_TEST);
    assert.equal(simulation.ok, false);
    assert.match(
      simulation.error ?? "",
      /answered badly twice for message 1: first the reply is not JSON; it sent "Sure! I'm Ada\."/,
    );
    // One retry, then the conversation fails: no third request.
    assert.equal(run.userRequests, 2);
  });
});
