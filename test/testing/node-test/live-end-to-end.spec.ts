import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, before, test } from "node:test";
import { basicFlowScripts } from "../../fixtures/flows/index.ts";
import { fixtureScenario } from "../../support/fixture-scenario.ts";
import { startFakeOpenAI, type FakeOpenAI } from "../../support/fake-openai-server.ts";
import { tempDir } from "../../support/temp-path.ts";
import { JUDGE_TESTS, judgeSummaries, result, ROOT, runSpec, tapResults, TURN_TESTS } from "../../support/child-run.ts";

// A placeholder refused (a tool call, then the answer), then a name accepted (a tool call that
// advances, then WeatherStep's answer).
const MODEL_CALLS_PER_CASE = 4;

// A flow suite like test/flows/basic-flow.spec.ts, on the BasicFlow fixture and its two scenario
// files, run live against a local OpenAI-compatible server, as `FLOW_MODEL=live npm run test:flows`
// with OPENAI_BASE_URL set would: the fake answers the model from BasicFlow's scripts and the judge
// with a passing verdict.

let fake: FakeOpenAI;

before(async () => {
  fake = await startFakeOpenAI(Object.values(basicFlowScripts));
});

after(async () => {
  await fake.close();
});

/** A spec in `dir` that runs every fixture scenario of BasicFlow with describeFlowScenarios. */
function writeFlowSuite(dir: string): string {
  const spec = join(dir, "basic-flow.spec.ts");
  const options = `{ flows: [basicFlowEntry], dir: ${JSON.stringify(dirname(fixtureScenario("basic-flow")))}, artifactsDir: ${JSON.stringify(join(dir, "artifacts"))} }`;
  writeFileSync(
    spec,
    [
      `import { describeFlowScenarios } from ${JSON.stringify(join(ROOT, "src", "testing", "index.ts"))};`,
      `import { basicFlowEntry } from ${JSON.stringify(join(ROOT, "test", "fixtures", "flows", "index.ts"))};`,
      "",
      `describeFlowScenarios("BasicFlow", ${options});`,
      "",
    ].join("\n"),
  );
  return spec;
}

test("FLOW_MODEL=live drives a flow suite through the server: every turn and every judge test passes, none skipped", async (t) => {
  const dir = await tempDir("live-end-to-end");
  t.after(dir.remove);
  const run = await runSpec(
    writeFlowSuite(dir.path),
    // The judge cache is off so that the judge is asked on every run, not answered from test/.tmp.
    { FLOW_MODEL: "live", OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: fake.baseURL, JUDGE_CACHE: "off" },
    t.signal,
  );
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const results = tapResults(run.stdout);
  for (const name of [
    "the target starts, serves the flow, and the persisted contract can be checked",
    ...TURN_TESTS,
    ...JUDGE_TESTS,
    "final state",
  ]) {
    assert.deepEqual(result(results, name), { ok: true, directive: undefined, error: undefined }, name);
  }
  for (const name of ["1. placeholder refused", "1. placeholder refused · judge", "2. real name accepted"]) {
    assert.equal(
      run.stdout.match(new RegExp(`^\\s*ok \\d+ - ${name.replace(".", "\\.")}$`, "gm"))?.length,
      5,
      `${name}, once per case of the placeholder-names scenario`,
    );
  }
  assert.match(run.stdout, /^# skipped 0$/m);
  assert.match(run.stdout, /^# fail 0$/m);
  // A summary per suite: the five cases of the placeholder-names scenario (one judged turn each), then the whole conversation.
  assert.deepEqual(judgeSummaries(run.stdout), [
    ...Array.from(
      { length: 5 },
      () => "judge: 1 calls made, 0 cached, 0 replayed; 120 tokens (100 prompt, 20 completion)",
    ),
    "judge: 5 calls made, 0 cached, 0 replayed; 600 tokens (500 prompt, 100 completion)",
  ]);

  const judge = fake.requests.filter((request) => request.response_format?.type === "json_object");
  const model = fake.requests.filter((request) => request.response_format === undefined);
  assert.equal(judge.length, 10);
  assert.equal(
    model.length,
    14 + 5 * MODEL_CALLS_PER_CASE,
    "BasicFlow's five answered turns make 14 model calls, as its cassette records, and each placeholder case its own",
  );
  assert.ok(model.every((request) => request.model === "gpt-4o-mini" && request.messages[0]?.role === "system"));
  assert.ok(judge.every((request) => request.model === "gpt-4o" && request.temperature === 0));
});
