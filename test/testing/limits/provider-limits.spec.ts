import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test, type TestContext } from "node:test";
import { basicFlowScripts } from "../../fixtures/flows/index.ts";
import { startFakeOpenAI, type FakeOpenAI } from "../../support/fake-openai-server.ts";
import { writeFlowSpec } from "../../support/scenario-spec.ts";
import { tempDir } from "../../support/temp-path.ts";
import type { ConversationResult, RunResults } from "../../../src/testing/report/run-results.ts";
import { readBasicFlow, ROOT, writeScenario, runFlowcheck } from "../../support/child-run.ts";

// A flowcheck test invocation, as a user runs it, of BasicFlow conversations played live against a
// local OpenAI-compatible server: its limits hold across all its specs, counted by the server.

// BasicFlow's conversation: 14 model calls and 5 judge calls, 120 tokens each at the fake.
const REQUESTS_PER_CONVERSATION = 19;
const LIVE = {
  FLOW_MODEL: "live",
  JUDGE: "required",
  JUDGE_CACHE: "off",
  OPENAI_API_KEY: "test-key",
  OPENAI_TIMEOUT_MS: "10000",
};

/** A fake provider of the test's own, closed after it: its counts and answers are that test's alone. */
async function fakeFor(t: TestContext): Promise<FakeOpenAI> {
  const fake = await startFakeOpenAI(Object.values(basicFlowScripts));
  t.after(() => fake.close());
  return fake;
}

/**
 * A flow spec in `dir` over `count` copies of BasicFlow's scenario (its first `turns` turns, all
 * by default), named `<prefix>1`…, in a folder of their own. Its artifacts go to the run's own
 * folder (flowcheck test runs in `dir`), so its conversations are in the run's results, unless
 * `artifactsDir` says elsewhere, as a spec's fixture suite writes them.
 */
function writeFlowSuite(
  dir: string,
  prefix: string,
  count: number,
  { turns, artifactsDir = join(dir, "test", ".tmp") }: { turns?: number; artifactsDir?: string } = {},
): string {
  const scenarios = join(dir, `${prefix}-scenarios`);
  mkdirSync(scenarios);
  const scenario = readBasicFlow();
  const played =
    turns === undefined
      ? scenario
      : {
          ...scenario,
          turns: scenario.turns.slice(0, turns),
          finalState: undefined,
          finalExecution: undefined,
          finalChildren: undefined,
        };
  for (let n = 1; n <= count; n++) writeScenario(scenarios, `${prefix}${n}`, played);
  return writeFlowSpec(dir, prefix, scenarios, artifactsDir);
}

/** A spec in `dir` that plays BasicFlow's scenario on a target it starts itself, through the public API. */
function writeOwnTargetSpec(dir: string): string {
  const scenario = writeScenario(dir, "own-target", readBasicFlow());
  const spec = join(dir, "own-target.spec.ts");
  writeFileSync(
    spec,
    [
      `import { test } from "node:test";`,
      `import { loadScenario, runScenario, startScenarioTarget } from ${JSON.stringify(join(ROOT, "src", "testing", "index.ts"))};`,
      `import { basicFlowEntry } from ${JSON.stringify(join(ROOT, "test", "fixtures", "flows", "index.ts"))};`,
      `test("a target of the spec's own plays the scenario", async () => {`,
      `  const loaded = loadScenario(${JSON.stringify(scenario)}, [basicFlowEntry.flow], { root: ${JSON.stringify(dir)} });`,
      `  const target = await startScenarioTarget(loaded, { flows: [basicFlowEntry], scratchDir: ${JSON.stringify(join(dir, "own-target"))} });`,
      "  try {",
      "    for await (const event of runScenario(loaded, target))",
      '      if (event.type === "scenario:end" && event.outcome === "failed") throw new Error("the scenario failed");',
      "  } finally {",
      "    await target.close();",
      "  }",
      "});",
      "",
    ].join("\n"),
  );
  return spec;
}

/** The conversations of the flowcheck test run in `dir`, from its results. */
function conversationsIn(dir: string): ConversationResult[] {
  return (JSON.parse(readFileSync(join(dir, "test", ".tmp", "run-results.json"), "utf8")) as RunResults).conversations;
}

/** flowcheck test in `dir` against `fake`, so the run's own results and page go to `dir`'s test/.tmp, never the user's. */
function runSpecs(fake: FakeOpenAI, dir: string, specs: string[], env: Record<string, string>, signal: AbortSignal) {
  return runFlowcheck(
    ["test", ...specs, "--test-reporter=tap"],
    { ...LIVE, OPENAI_BASE_URL: fake.baseURL, ...env },
    signal,
    dir,
  );
}

/** flowcheck test's summary line for the fake provider. */
function providerLine(fake: FakeOpenAI, stdout: string): string {
  const line = stdout.split("\n").find((each) => each.startsWith(`provider ${new URL(fake.baseURL).origin}:`));
  assert.ok(line, `no provider summary line in:\n${stdout}`);
  return line;
}

// Each test has its own fake provider, folder and flowcheck test child, so they run side by side.
describe("a flowcheck test run's provider limits, counted by the provider", { concurrency: 2 }, () => {
  test("8 conversations in flight over two specs never have more than OPENAI_MAX_INFLIGHT=4 requests open at the server, and all pass", async (t) => {
    const dir = await tempDir("provider-limits");
    t.after(dir.remove);
    const fake = await fakeFor(t);
    fake.delayMs = 40;
    const specs = [writeFlowSuite(dir.path, "a", 4), writeFlowSuite(dir.path, "b", 4)];
    const run = await runSpecs(
      fake,
      dir.path,
      [...specs, "--test-concurrency=2"],
      { FLOW_CONCURRENCY: "8", OPENAI_MAX_INFLIGHT: "4" },
      t.signal,
    );
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /^# fail 0$/m);
    assert.match(run.stdout, /^# skipped 0$/m);
    assert.equal(fake.requests.length, 8 * REQUESTS_PER_CONVERSATION);
    assert.ok(fake.maxInFlight <= 4, `the server had ${fake.maxInFlight} requests open at once`);
    assert.ok(fake.maxInFlight >= 2, "the conversations were played one request at a time, not in parallel");
    assert.equal(
      providerLine(fake, run.stdout),
      `provider ${new URL(fake.baseURL).origin}: ${8 * REQUESTS_PER_CONVERSATION} requests, at most ${fake.maxInFlight} in flight, 0 SDK retries`,
    );
    assert.match(run.stdout, /^conversations: 8 played, at most \d at once$/m);
  });

  test("a fixture suite writing its artifacts elsewhere and a target a spec starts itself play live, but the run's summary has no provider, conversations or tokens line for them", async (t) => {
    const dir = await tempDir("provider-elsewhere");
    t.after(dir.remove);
    const fake = await fakeFor(t);
    const fixture = writeFlowSuite(dir.path, "f", 1, { artifactsDir: join(dir.path, "fixture-artifacts") });
    const run = await runSpecs(
      fake,
      dir.path,
      [fixture, writeOwnTargetSpec(dir.path)],
      { FLOW_CONCURRENCY: "1" },
      t.signal,
    );
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /^# pass 14$/m);
    assert.match(run.stdout, /^# fail 0$/m);
    assert.ok(
      fake.requests.length > REQUESTS_PER_CONVERSATION,
      "the fixture suite and the spec's own target played live",
    );
    const summary = run.stdout.split("\n").filter((line) => /^(provider |conversations: |tokens )/.test(line));
    assert.deepEqual(summary, [], run.stdout);
  });

  test("beside the run's own live suite, a fixture suite's requests share OPENAI_MAX_INFLIGHT=1 but only the run's own are counted", async (t) => {
    const dir = await tempDir("provider-own");
    t.after(dir.remove);
    const fake = await fakeFor(t);
    fake.delayMs = 5;
    const specs = [
      writeFlowSuite(dir.path, "f", 1, { artifactsDir: join(dir.path, "fixture-artifacts") }),
      writeFlowSuite(dir.path, "o", 1),
    ];
    const run = await runSpecs(
      fake,
      dir.path,
      [...specs, "--test-concurrency=2"],
      { FLOW_CONCURRENCY: "2", OPENAI_MAX_INFLIGHT: "1" },
      t.signal,
    );
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(fake.requests.length, 2 * REQUESTS_PER_CONVERSATION);
    assert.equal(fake.maxInFlight, 1, "the two suites' requests were limited together");
    assert.equal(
      providerLine(fake, run.stdout),
      `provider ${new URL(fake.baseURL).origin}: ${REQUESTS_PER_CONVERSATION} requests, at most 1 in flight, 0 SDK retries`,
    );
    const lines = run.stdout.split("\n");
    assert.ok(lines.includes("conversations: 1 played, at most 1 at once"), run.stdout);
    assert.deepEqual(
      lines.filter((line) => line.startsWith("tokens ")).map((line) => line.split(":")[0]),
      ["tokens BasicFlow", "tokens in total"],
      run.stdout,
    );
    assert.ok(
      lines.some((line) => line.startsWith("tokens BasicFlow: o1: ")),
      run.stdout,
    );
  });

  test("every third request answered 429 with Retry-After: 0.2 still ends green, the SDK's retries and the pauses counted in the summary", async (t) => {
    const dir = await tempDir("provider-429");
    t.after(dir.remove);
    const fake = await fakeFor(t);
    let firstTries = 0;
    let refused = 0;
    // Only a first try is refused, so that the count does not hang on which retry lands where.
    fake.answer = (_request, _index, headers) => {
      if (headers["x-stainless-retry-count"] !== "0" || ++firstTries % 3 !== 0) return undefined;
      refused += 1;
      return { status: 429, headers: { "retry-after": "0.2" }, body: { error: { message: "rate limited" } } };
    };
    const run = await runSpecs(
      fake,
      dir.path,
      [writeFlowSuite(dir.path, "r", 3)],
      { OPENAI_MAX_RETRIES: "2" },
      t.signal,
    );
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /^# fail 0$/m);
    assert.equal(firstTries, 3 * REQUESTS_PER_CONVERSATION);
    assert.equal(refused, REQUESTS_PER_CONVERSATION);
    const origin = new URL(fake.baseURL).origin.replaceAll(".", "\\.");
    assert.match(
      providerLine(fake, run.stdout),
      new RegExp(
        `^provider ${origin}: ${firstTries + refused} requests, at most \\d+ in flight, ${refused} SDK retries, ${refused} pauses after a 429$`,
      ),
    );
  });

  test("FLOW_MAX_TOKENS: once the run has used its budget no new conversation starts, and each not started is skipped saying why", async (t) => {
    const dir = await tempDir("provider-budget");
    t.after(dir.remove);
    const fake = await fakeFor(t);
    const run = await runSpecs(
      fake,
      dir.path,
      [writeFlowSuite(dir.path, "t", 3)],
      { FLOW_CONCURRENCY: "1", FLOW_MAX_TOKENS: "1000", FLOW_PRICE_PER_MTOK_IN: "1", FLOW_PRICE_PER_MTOK_OUT: "2" },
      t.signal,
    );
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const used = REQUESTS_PER_CONVERSATION * 120;
    const reason = `FLOW_MAX_TOKENS=1000 was reached (${used} tokens used), so this conversation was not started`;
    // Two conversations not started: each of their tests (start, 6 turns, 5 judges, final) skipped with the reason.
    assert.equal(
      run.stdout.split("\n").filter((line) => /^\s*ok \d+ - /.test(line) && line.endsWith(`# SKIP ${reason}`)).length,
      2 * 13,
    );
    assert.match(run.stdout, /^# skipped 26$/m);
    const lines = run.stdout.split("\n");
    assert.ok(
      lines.includes(
        `tokens BasicFlow: t1: ${used} (${REQUESTS_PER_CONVERSATION * 100} in, ${REQUESTS_PER_CONVERSATION * 20} out)`,
      ),
      run.stdout,
    );
    const cost = ((REQUESTS_PER_CONVERSATION * 100 * 1 + REQUESTS_PER_CONVERSATION * 20 * 2) / 1e6).toFixed(4);
    assert.ok(
      lines.includes(
        `tokens in total: ${used} (${REQUESTS_PER_CONVERSATION * 100} in, ${REQUESTS_PER_CONVERSATION * 20} out); estimated cost $${cost}`,
      ),
      run.stdout,
    );
    assert.ok(
      lines.includes("conversations: 1 played, at most 1 at once, 2 not started (FLOW_MAX_TOKENS reached)"),
      run.stdout,
    );
  });

  test("--repeat 3 plays the three copies of a conversation at once, and each turn's pass rate and score spread count all of them", async (t) => {
    const dir = await tempDir("provider-repeat");
    t.after(dir.remove);
    const fake = await fakeFor(t);
    fake.delayMs = 20;
    const run = await runSpecs(
      fake,
      dir.path,
      [writeFlowSuite(dir.path, "p", 1), "--repeat", "3"],
      { FLOW_CONCURRENCY: "3" },
      t.signal,
    );
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /^# Subtest: BasicFlow: p1 × 3$/m);
    assert.match(run.stdout, /^\s*# turn 2 'name accepted': passed 3 of 3 runs \(100%\)$/m);
    assert.match(
      run.stdout,
      /^\s*# the judge of turn 2 'name accepted': passed 3 of 3 runs \(100%\); judge scores min 0\.90, median 0\.90, max 0\.90$/m,
    );
    // The three are asked for when the suite is defined, long before any of them ends.
    assert.ok(run.stdout.split("\n").includes("conversations: 3 played, at most 3 at once"), run.stdout);
  });

  test("the longest conversation of the whole run is played first, though another spec asked for its slots before", async (t) => {
    const dir = await tempDir("provider-longest");
    t.after(dir.remove);
    const fake = await fakeFor(t);
    fake.delayMs = 5;
    const long = writeFlowSuite(dir.path, "b-long", 1);
    // The long conversation's spec asks for its slot well after the other has asked for theirs.
    writeFileSync(long, `await new Promise((resolve) => setTimeout(resolve, 500));\n${readFileSync(long, "utf8")}`);
    const specs = [writeFlowSuite(dir.path, "a-short", 3, { turns: 2 }), long];
    const run = await runSpecs(fake, dir.path, [...specs, "--test-concurrency=2"], { FLOW_CONCURRENCY: "1" }, t.signal);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const started = conversationsIn(dir.path)
      .sort((a, b) => Date.parse(a.startedAt!) - Date.parse(b.startedAt!))
      .map((conversation) => conversation.name);
    assert.deepEqual(started.slice(0, 1), ["b-long1"], `started in the order ${started.join(", ")}`);
    assert.equal(started.length, 4);
  });
});
