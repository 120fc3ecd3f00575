import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { loadScenario } from "../../../src/testing/scenario/load-scenario.ts";
import { ScenarioRun } from "../../../src/testing/run/scenario-run.ts";
import { startScenarioTarget } from "../../../src/testing/target/scenario-target.ts";
import { suiteRunOptions } from "../../../src/testing/node-test/suite-run-options.ts";
import { basicFlowEntry, basicFlowScripts } from "../../fixtures/flows/index.ts";
import { startFakeOpenAI, type FakeOpenAI } from "../../support/fake-openai-server.ts";
import { tempDir } from "../../support/temp-path.ts";
import { BASIC_FLOW_FILE } from "../../support/child-run.ts";

// Each turn's report carries what its model calls and its judge call used, as the provider's
// `usage` says: the fake answers every request with 100 prompt and 20 completion tokens.

let fake: FakeOpenAI;

before(async () => {
  fake = await startFakeOpenAI(Object.values(basicFlowScripts));
});

after(async () => {
  await fake.close();
});

test("a live turn's report holds the tokens of its own model calls and of its judge call, from the provider's usage", async (t) => {
  const dir = await tempDir("turn-tokens");
  t.after(dir.remove);
  const loaded = loadScenario(BASIC_FLOW_FILE, [basicFlowEntry.flow], { root: "test/fixtures/scenarios" });
  const env = {
    FLOW_MODEL: "live",
    JUDGE: "required",
    JUDGE_CACHE: "off",
    OPENAI_API_KEY: "test-key",
    OPENAI_BASE_URL: fake.baseURL,
    OPENAI_MAX_RETRIES: "0",
    FLOW_BASE_URL: undefined,
  };
  const target = await startScenarioTarget(loaded, { flows: [basicFlowEntry], env, scratchDir: dir.path });
  t.after(() => target.close());
  const run = new ScenarioRun(
    loaded,
    target,
    suiteRunOptions(target, { flows: [basicFlowEntry] }, dir.path, loaded.scenario.flowName).run,
  );
  for (const index of [0, 1]) {
    const before = fake.requests.length;
    const report = await run.playTurn(index);
    const sent = fake.requests.slice(before);
    const model = sent.filter((request) => request.response_format === undefined).length;
    assert.equal(sent.length - model, 1, "one judge call per judged turn");
    assert.ok(model >= 1);
    assert.deepEqual(
      report.tokens,
      { model: { input: 100 * model, output: 20 * model }, judge: { input: 100, output: 20 } },
      `turn ${index + 1}`,
    );
  }
  run.end();
});

test("a scripted turn calls no provider, and its report has no tokens", async (t) => {
  const dir = await tempDir("turn-tokens-scripted");
  t.after(dir.remove);
  const loaded = loadScenario(BASIC_FLOW_FILE, [basicFlowEntry.flow], { root: "test/fixtures/scenarios" });
  const target = await startScenarioTarget(loaded, {
    flows: [basicFlowEntry],
    env: { FLOW_MODEL: "scripted", JUDGE: "off", FLOW_BASE_URL: undefined },
    scratchDir: dir.path,
  });
  t.after(() => target.close());
  const run = new ScenarioRun(loaded, target, {});
  const report = await run.playTurn(0);
  assert.equal(report.outcome, "passed");
  assert.equal(report.tokens, undefined);
  run.end();
});
