import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { isFlowcheckError } from "../../../src/errors.ts";
import { measureStrength, type StrengthOptions } from "../../../src/testing/strength/measure-strength.ts";
import { differenceLine } from "../../../src/testing/strength/render-strength.ts";
import { basicFlowEntry } from "../../fixtures/flows/basic/basic-flow-entry.ts";
import { basicFlowScripts } from "../../fixtures/flows/index.ts";
import { basicFlowUser } from "../../fixtures/flows/basic/basic-flow-user.ts";
import { envWith } from "../../support/env-with.ts";
import { startFakeOpenAI } from "../../support/fake-openai-server.ts";
import { tempDir } from "../../support/temp-path.ts";

const root = join(import.meta.dirname, "..", "..", "fixtures", "strength");
const scenario = (name: string) => join(root, `${name}.scenario.json`);

async function measured(files: string[], env: Record<string, string | undefined> = {}) {
  const scratch = await tempDir("strength");
  const options: StrengthOptions = {
    files,
    root,
    flows: [{ ...basicFlowEntry, user: basicFlowUser }],
    env: envWith({ FLOW_MODEL: undefined, FLOW_BASE_URL: undefined, FLOW_TARGET: undefined, ...env }),
    scratchDir: scratch.path,
    turnTimeoutMs: 10_000,
  };
  try {
    return await measureStrength(options);
  } finally {
    scratch.remove();
  }
}

/** BasicFlow's saved values no step reads back, so only an expectState notices them changed: the turn and expectation each survivor must name. */
const address = `{"street":"1600 SW Murray Blvd","city":"Beaverton","state":"OR","zip":"97006"}`;
const savedValues = [
  ["BasicFlow/NameStep/save_name: drop state.name", 1, `"expectState": { "NameStep": { "name": "Ada Lovelace" } }`],
  ["BasicFlow/NameStep/save_name: change state.name", 1, `"expectState": { "NameStep": { "name": "Ada Lovelace" } }`],
  ["BasicFlow/WeatherStep/get_weather: change state.city_LA", 2, `"expectState": { "WeatherStep": { "city_LA": 72 } }`],
  ["BasicFlow/WeatherStep/get_weather: drop state.city_NYC", 2, `"expectState": { "WeatherStep": { "city_NYC": 64 } }`],
  [
    "BasicFlow/WeatherStep/get_weather: change state.city_NYC",
    2,
    `"expectState": { "WeatherStep": { "city_NYC": 64 } }`,
  ],
  [
    "BasicFlow/AddressStep/check_address: drop state.address",
    3,
    `"expectState": { "AddressStep": { "address": ${address} } }`,
  ],
  [
    "BasicFlow/AddressStep/check_address: change state.address",
    3,
    `"expectState": { "AddressStep": { "address": ${address} } }`,
  ],
] as const;

test("a live model is refused before anything is played", async () => {
  await assert.rejects(measured([scenario("basic-flow-steps-only")], { FLOW_MODEL: "live" }), (error) => {
    assert.ok(isFlowcheckError(error, "strength_refused"));
    assert.match(
      error.message,
      /FLOW_MODEL runs with the live model.*Unset FLOW_MODEL or set it to scripted or replay/,
    );
    return true;
  });
});

test("FLOW_MODEL=auto with a scenario's cassette missing is refused before anything is played: its recording would be live", async () => {
  const fake = await startFakeOpenAI(Object.values(basicFlowScripts));
  try {
    const env = { FLOW_MODEL: "auto", OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: fake.baseURL, CI: undefined };
    await assert.rejects(measured([scenario("basic-flow-steps-only")], env), (error) => {
      assert.ok(isFlowcheckError(error, "strength_refused"));
      assert.equal(
        error.message,
        `FLOW_MODEL=auto would record the cassette of basic-flow-steps-only (${scenario("basic-flow-steps-only").replace(".scenario.json", ".cassette.json")}), ` +
          "live: a strength run plays its mutants only scripted or in replay, so a verdict is the mutant's and not the model's. " +
          `Record it first (\`FLOW_MODEL=auto npx flowcheck test ${scenario("basic-flow-steps-only")}\` with a key), or unset FLOW_MODEL.`,
      );
      return true;
    });
    assert.equal(fake.requests.length, 0);
  } finally {
    await fake.close();
  }
});

test("a scenario failing on the unmutated flow is reported and left out, so it kills nothing", async () => {
  const result = await measured([scenario("basic-flow-wrong-step")]);
  assert.deepEqual(result.scenarios, []);
  assert.deepEqual(
    result.failing.map((failing) => failing.scenario),
    ["basic-flow-wrong-step"],
  );
  assert.match(result.failing[0]!.failure, /^turn 1 'name accepted': .*NameStep/);
  assert.deepEqual(result.judged, []);
});

test("a scenario checking only the active step lets its saved values' mutants survive, naming the turn and the missing expectState; the expectations kill them", async () => {
  const weak = await measured([scenario("basic-flow-steps-only")]);
  const strong = await measured([scenario("basic-flow-saved-values")]);
  const verdictOf = (result: typeof weak, id: string) => result.judged.find(({ mutant }) => mutant.id === id)?.verdict;
  for (const [id, turn, expectation] of savedValues) {
    const survivor = verdictOf(weak, id);
    assert.equal(survivor?.verdict, "survived", id);
    const lines = survivor?.verdict === "survived" ? survivor.differences.map(differenceLine) : [];
    assert.ok(
      lines.some(
        (line) => line.startsWith(`basic-flow-steps-only turn ${turn} `) && line.endsWith(`add ${expectation}`),
      ),
      `${id}: ${lines.join("\n")}`,
    );
    const killed = verdictOf(strong, id);
    assert.ok(killed?.verdict === "killed" && killed.by === "check", id);
    assert.match(killed.check, /^expectation expectState\.(NameStep|WeatherStep|AddressStep)$/, id);
  }
  const basic = strong.scores.find((flow) => flow.flow === "BasicFlow")!;
  assert.equal(verdictOf(strong, "BasicFlow/AddressStep: drop output of child AddressCheck")?.verdict, "equivalent");
  assert.ok(basic.equivalent >= 1);
  assert.equal(basic.score, (basic.killed + basic.timedOut) / (basic.killed + basic.timedOut + basic.survived));
});

test("a simulated scenario is played by its flow's scripted user, so its success checks kill mutants", async () => {
  const result = await measured([scenario("basic-flow-simulated")]);
  assert.deepEqual(result.failing, []);
  assert.deepEqual(result.scenarios, ["basic-flow-simulated"]);
  const changed = result.judged.find(({ mutant }) => mutant.id === "BasicFlow/NameStep/save_name: change state.name");
  assert.ok(changed?.verdict.verdict === "killed" && changed.verdict.by === "check");
  assert.match(changed.verdict.check, /success\.finalState\.NameStep/);
});
