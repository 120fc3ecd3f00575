import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { basicFlowScripts } from "../../../src/flows/index.ts";
import { startFakeOpenAI, type FakeOpenAI } from "../../support/fake-openai-server.ts";
import { JUDGE_TESTS, judgeSummary, result, runSpec, tapResults, TURN_TESTS } from "./child-run.ts";

// The repo's own BasicFlow suite, run live against a local OpenAI-compatible server, as
// `FLOW_MODEL=live npm run test:flows` with OPENAI_BASE_URL set would: the fake answers the model
// from BasicFlow's scripts and the judge with a passing verdict.

let fake: FakeOpenAI;

before(async () => {
  fake = await startFakeOpenAI(Object.values(basicFlowScripts));
});

after(async () => {
  await fake.close();
});

test("FLOW_MODEL=live drives test/flows/basic-flow.spec.ts through the server: every turn and every judge test passes, none skipped", async (t) => {
  const run = await runSpec(
    "test/flows/basic-flow.spec.ts",
    // The judge cache is off so that the judge is asked on every run, not answered from test/.tmp.
    { FLOW_MODEL: "live", OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: fake.baseURL, JUDGE_CACHE: "off" },
    t.signal,
  );
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const results = tapResults(run.stdout);
  for (const name of ["the target starts, serves the flow, and the persisted contract can be checked", ...TURN_TESTS, ...JUDGE_TESTS, "final state"]) {
    assert.deepEqual(result(results, name), { ok: true, directive: undefined, error: undefined }, name);
  }
  assert.match(run.stdout, /^# skipped 0$/m);
  assert.match(run.stdout, /^# fail 0$/m);
  assert.equal(judgeSummary(run.stdout), "judge: 5 calls made, 0 cached, 0 replayed; 600 tokens (500 prompt, 100 completion)");

  const judge = fake.requests.filter((request) => request.response_format?.type === "json_object");
  const model = fake.requests.filter((request) => request.response_format === undefined);
  assert.equal(judge.length, 5);
  assert.equal(model.length, 14, "BasicFlow's five answered turns make 14 model calls, as its cassette records");
  assert.ok(model.every((request) => request.model === "gpt-4o-mini" && request.messages[0]?.role === "system"));
  assert.ok(judge.every((request) => request.model === "gpt-4o" && request.temperature === 0));
});
