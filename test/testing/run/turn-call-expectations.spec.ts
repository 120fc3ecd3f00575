import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import assert from "node:assert/strict";
import { after, before, test, type TestContext } from "node:test";
import { loadScenario } from "../../../src/testing/scenario/load-scenario.ts";
import { ScenarioRun } from "../../../src/testing/run/scenario-run.ts";
import { startScenarioTarget } from "../../../src/testing/target/scenario-target.ts";
import type { Check } from "../../../src/testing/checks/check.ts";
import { basicFlowEntry, basicFlowScripts } from "../../fixtures/flows/index.ts";
import { startFakeOpenAI, type FakeOpenAI } from "../../support/fake-openai-server.ts";
import { tempDir } from "../../support/temp-path.ts";
import { CONTACT_STEPS } from "../../support/contact-flow.ts";
import { result, runFlowcheck, tapResults, writeSpec } from "../../support/child-run.ts";
import type { RunResults } from "../../../src/testing/report/run-results.ts";
import { sessionChatEntry, startSessionChatServer } from "../../support/session-chat-server.ts";

// expectToolCalls, maxLatencyMs, maxTokens and maxCostUsd, each played from its fixture scenario.
// The fake provider answers every request with 100 prompt and 20 completion tokens.

let fake: FakeOpenAI;

before(async () => {
  fake = await startFakeOpenAI(Object.values(basicFlowScripts));
});

after(async () => {
  await fake.close();
});

// Outside test/fixtures/scenarios, which other specs play whole: half of these fail on purpose.
const TURN_EXPECTATIONS = resolve(import.meta.dirname, "..", "..", "fixtures", "turn-expectations");
// Outside test/fixtures/scenarios, whose files all load against the fixture flows.
const CONTACT_TOOL_CALLS = resolve(
  import.meta.dirname,
  "..",
  "..",
  "fixtures",
  "http-target-scenarios",
  "contact-tool-calls.scenario.json",
);

const SCRIPTED = { FLOW_MODEL: "scripted", JUDGE: "off", FLOW_BASE_URL: undefined };

/** The fake provider's environment; `priced`: at $1 per million input tokens and $2 per million output. */
function live(priced = false): Record<string, string | undefined> {
  return {
    ...(priced ? { FLOW_PRICE_PER_MTOK_IN: "1", FLOW_PRICE_PER_MTOK_OUT: "2" } : {}),
    FLOW_MODEL: "live",
    JUDGE: "off",
    OPENAI_API_KEY: "test-key",
    OPENAI_BASE_URL: fake.baseURL,
    OPENAI_MAX_RETRIES: "0",
    FLOW_BASE_URL: undefined,
  };
}

/** Plays fixture scenario `name` to its end; every turn's checks named `key`, and the final report. */
async function play(t: TestContext, name: string, env: Record<string, string | undefined>) {
  const dir = await tempDir(`turn-call-${name}`);
  t.after(dir.remove);
  const loaded = loadScenario(join(TURN_EXPECTATIONS, `${name}.scenario.json`), [basicFlowEntry.flow], {
    root: TURN_EXPECTATIONS,
  });
  const target = await startScenarioTarget(loaded, { flows: [basicFlowEntry], env, scratchDir: dir.path });
  t.after(() => target.close());
  const run = new ScenarioRun(loaded, target, {});
  const final = await run.complete();
  run.end();
  const named = (key: string): Check[] => run.reports.flatMap((report) => report.checks.filter((c) => c.name === key));
  return { run, final, named };
}

test("expectToolCalls passes when each turn called the listed tools in order, with their arguments, outputs and results, a nested run's included", async (t) => {
  const { run, named } = await play(t, "basic-flow-tool-calls", SCRIPTED);
  assert.deepEqual(
    run.reports.map((report) => report.outcome),
    ["passed", "passed", "passed", "passed"],
  );
  const checks = named("expectToolCalls");
  assert.deepEqual(
    checks.map((c) => c.outcome),
    ["passed", "passed", "passed", "passed"],
  );
  // Each call's output is the tool message that answered it in its step's memory.
  assert.deepEqual(checks[2]!.actual, [
    {
      name: "get_weather",
      args: { cityName: "LA" },
      output: "LA is 72°F. Ask for the second city.",
      status: "returned",
      result: "stay",
    },
    {
      name: "get_weather",
      args: { cityName: "NYC" },
      output: "NYC is 64°F. Both cities are saved: LA 72°F, NYC 64°F.",
      status: "returned",
      result: "advance",
    },
  ]);
  assert.deepEqual(
    (checks[3]!.actual as { name: string }[]).map((call) => call.name),
    ["normalize_address", "check_address"],
  );
  assert.deepEqual(
    named("maxLatencyMs").map((c) => c.outcome),
    ["passed"],
  );
});

test("expectToolCalls fails a turn whose calls came in another order, saying what was expected and what the turn called", async (t) => {
  const { run, named } = await play(t, "basic-flow-tool-calls-out-of-order", SCRIPTED);
  assert.equal(run.reports[1]!.outcome, "failed");
  assert.equal(
    named("expectToolCalls")[0]!.message,
    'turn 2: expectToolCalls[1] {"name":"get_weather","args":{"cityName":"LA"}} was not called after expectToolCalls[0]: ' +
      "the turn did not call get_weather after that; " +
      'the turn called get_weather({"cityName":"LA"}) → stay "LA is 72°F. Ask for the second city.", ' +
      'get_weather({"cityName":"NYC"}) → advance "NYC is 64°F. Both cities are saved: LA 72°F, NYC 64°F."',
  );
  assert.match(run.reports[1]!.failure!, /expectToolCalls/);
});

test("expectToolCalls is skipped, saying why, against an http entry whose plain JSON answers report no tool calls", async (t) => {
  const server = await startSessionChatServer();
  t.after(() => server.close());
  const outline = { name: "ContactFlow", stepNames: CONTACT_STEPS, servedBy: server.url, kind: "http" as const };
  const loaded = loadScenario(CONTACT_TOOL_CALLS, [], { root: "test/fixtures/http-target-scenarios", outline });
  const targets = { path: "flowcheck.config.json", targets: { support: sessionChatEntry(server.url) } };
  const target = await startScenarioTarget(loaded, { flows: [], env: SCRIPTED, targets });
  t.after(() => target.close());
  const run = new ScenarioRun(loaded, target, {});
  const report = await run.playTurn(0);
  run.end();
  assert.equal(report.outcome, "passed");
  const skip = report.checks.find((c) => c.name === "expectToolCalls");
  assert.deepEqual(skip, {
    contract: "expectation",
    name: "expectToolCalls",
    outcome: "skipped",
    message:
      "this target's answers report no tool calls: give its entry answer.toolCalls, or a stream that carries them (ai-sdk-ui, openai-chat)",
  });
});

test("maxLatencyMs fails a turn that took longer over HTTP, saying how long it took", async (t) => {
  const { run, named } = await play(t, "basic-flow-slow-turn", SCRIPTED);
  assert.equal(run.reports[0]!.outcome, "failed");
  assert.match(
    named("maxLatencyMs")[0]!.message!,
    /^turn 1 'name rejected' took \d+ ms over HTTP; maxLatencyMs allows 0\.001$/,
  );
});

test("maxTokens and maxCostUsd are skipped, saying why, when a scripted model reports no tokens", async (t) => {
  const { run, final, named } = await play(t, "basic-flow-token-budget", SCRIPTED);
  assert.deepEqual(
    run.reports.map((report) => report.outcome),
    ["passed", "passed"],
  );
  for (const c of [...named("maxTokens"), ...named("maxCostUsd")]) {
    assert.equal(c.outcome, "skipped");
    assert.match(c.message!, /no token counts are known/);
  }
  assert.deepEqual(
    final.checks.filter((c) => c.name.startsWith("max")).map((c) => [c.name, c.outcome]),
    [
      ["maxTokens", "skipped"],
      ["maxCostUsd", "skipped"],
    ],
  );
});

test("live, maxTokens and maxCostUsd pass on a turn and a scenario within them, at the run's prices", async (t) => {
  const { run, final, named } = await play(t, "basic-flow-token-budget", live(true));
  assert.deepEqual(
    run.reports.map((report) => report.outcome),
    ["passed", "passed"],
  );
  assert.deepEqual(
    [...named("maxTokens"), ...named("maxCostUsd")].map((c) => c.outcome),
    ["passed", "passed", "passed"],
  );
  assert.equal(final.outcome, "passed");
  assert.deepEqual(
    final.checks.filter((c) => c.name.startsWith("max")).map((c) => [c.name, c.outcome]),
    [
      ["maxTokens", "passed"],
      ["maxCostUsd", "passed"],
    ],
  );
});

test("live, maxCostUsd is skipped without prices, saying which to set", async (t) => {
  const { named } = await play(t, "basic-flow-token-budget", live());
  assert.equal(named("maxCostUsd")[0]!.outcome, "skipped");
  assert.match(named("maxCostUsd")[0]!.message!, /set FLOW_PRICE_PER_MTOK_IN and FLOW_PRICE_PER_MTOK_OUT/);
});

test("live, maxTokens fails a turn whose model calls used more, counting input and output", async (t) => {
  const { run, named } = await play(t, "basic-flow-token-overrun", live());
  assert.equal(run.reports[0]!.outcome, "failed");
  const model = run.reports[0]!.tokens!.model!;
  assert.equal(
    named("maxTokens")[0]!.message,
    `the model calls of turn 1 'name rejected' used ${model.input + model.output} tokens (${model.input} in, ${model.output} out); maxTokens allows 100`,
  );
});

test("live, the scenario's maxTokens and maxCostUsd fail the final report on its turns' model calls together", async (t) => {
  const { run, final } = await play(t, "basic-flow-scenario-token-overrun", live(true));
  assert.deepEqual(
    run.reports.map((report) => report.outcome),
    ["passed", "passed"],
  );
  const used = run.reports.reduce((sum, report) => sum + report.tokens!.model!.input + report.tokens!.model!.output, 0);
  assert.ok(used > 250);
  assert.equal(final.outcome, "failed");
  assert.match(final.failure!, new RegExp(`maxTokens: the model calls of the scenario used ${used} tokens`));
  assert.match(
    final.failure!,
    /maxCostUsd: the model calls of the scenario cost an estimated \$0\.\d+; maxCostUsd allows \$0\.00001/,
  );
});

test("live, the scenario's maxTokens is checked after a failed turn, on the turns played, and fails the final state with the turn", async (t) => {
  const { run, final } = await play(t, "basic-flow-failed-turn-token-overrun", live());
  assert.deepEqual(
    run.reports.map((report) => report.outcome),
    ["passed", "failed", "skipped"],
  );
  const model = run.reports.map((report) => report.tokens?.model ?? { input: 0, output: 0 });
  const [input, output] = [model[0]!.input + model[1]!.input, model[0]!.output + model[1]!.output];
  assert.ok(input + output > 200, `${input + output} tokens`);
  assert.equal(final.outcome, "failed");
  assert.equal(
    final.failure,
    `final state (turn 2 failed, so only the scenario's budget was checked): maxTokens: the model calls of the scenario used ${input + output} tokens (${input} in, ${output} out); maxTokens allows 200`,
  );
  assert.deepEqual(
    final.checks.map((c) => [c.name, c.outcome]),
    [["maxTokens", "failed"]],
  );
  assert.match(final.location!, /basic-flow-failed-turn-token-overrun\.scenario\.json:10$/);
  assert.equal(run.failed, true);
});

test("after a failed turn, a scenario budget that held is listed passed (live) or skipped without token counts (scripted), the final state skipped for the turn", async (t) => {
  const cases = [
    { env: live(true), outcome: "passed", skipReason: "turn 2 failed; the scenario's maxTokens and maxCostUsd held" },
    { env: SCRIPTED, outcome: "skipped", skipReason: "turn 2 failed" },
  ];
  for (const { env, outcome, skipReason } of cases) {
    const { final } = await play(t, "basic-flow-failed-turn-token-budget", env);
    assert.deepEqual(
      [final.outcome, final.skipReason, final.checks.map((c) => [c.name, c.outcome])],
      [
        "skipped",
        skipReason,
        [
          ["maxTokens", outcome],
          ["maxCostUsd", outcome],
        ],
      ],
    );
  }
});

test("live, under flowcheck test a scenario budget overspent before a failed turn fails the final state test, and the results, transcript and report show it", async (t) => {
  const dir = await tempDir("turn-call-budget-run");
  t.after(dir.remove);
  // Run in the temporary folder, whose test/.tmp is then the run's: its results and report land there.
  const artifacts = join(dir.path, "test", ".tmp");
  const file = join(TURN_EXPECTATIONS, "basic-flow-failed-turn-token-overrun.scenario.json");
  const spec = writeSpec(dir.path, file, artifacts);
  const { OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MAX_RETRIES } = live() as Record<string, string>;
  const env = { FLOW_MODEL: "live", JUDGE: "off", OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MAX_RETRIES };
  const run = await runFlowcheck(["test", spec, "--test-reporter=tap"], env, undefined, dir.path);
  assert.equal(run.code, 1, run.stdout + run.stderr);
  const tap = tapResults(run.stdout);
  assert.equal(result(tap, "2. name accepted").ok, false);
  const final = result(tap, "final state");
  assert.equal(final.ok, false);
  // The scenario's maxTokens is on line 10 of its file: a failed budget leads with it, as final expectations do.
  const lead = `${file}:10: final state (turn 2 failed, so only the scenario's budget was checked): maxTokens: `;
  assert.ok(final.error!.startsWith(lead), final.error);
  assert.match(
    final.error!.slice(lead.length),
    /^the model calls of the scenario used \d+ tokens \(\d+ in, \d+ out\); maxTokens allows 200\n/,
  );

  const results = join(artifacts, "run-results.json");
  const [conversation] = (JSON.parse(readFileSync(results, "utf8")) as RunResults).conversations;
  assert.equal(conversation!.outcome, "failed");
  assert.deepEqual(
    conversation!.final!.checks.map((c) => [c.contract, c.name, c.outcome]),
    [["expectation", "maxTokens", "failed"]],
  );
  const transcript = await runFlowcheck(["transcript", results]);
  assert.equal(transcript.code, 0, transcript.stderr);
  assert.match(transcript.stdout, /^── final state ✗$/m);
  assert.match(transcript.stdout, /^ {3}✗ expectation maxTokens: the model calls of the scenario used \d+ tokens/m);
  assert.match(
    readFileSync(join(artifacts, "report.html"), "utf8"),
    /<section class="turn final failed">.*?maxTokens/s,
  );
});
