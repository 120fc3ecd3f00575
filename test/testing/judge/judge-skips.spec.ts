import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { basicFlowScripts } from "../../fixtures/flows/index.ts";
import { startFakeOpenAI, type FakeOpenAI } from "../../support/fake-openai-server.ts";
import { tempDir } from "../../support/temp-path.ts";
import {
  JUDGE_TESTS,
  NO_KEY,
  readBasicFlow,
  result,
  ROOT,
  runSpec,
  tapResults,
  TURN_TESTS,
  writeScenario,
  type ChildRun,
} from "../../support/child-run.ts";

// What cannot be judged is reported as skipped with the reason, never passed: no key, JUDGE=off,
// a live-only scenario on the scripted model. JUDGE=required turns a missing judge into failures.

const LIVE_ONLY =
  "live-only scenario: BasicFlow would run on its scripted model (no OPENAI_API_KEY is set); run it with FLOW_MODEL=live, record or replay";

/**
 * A spec running a copy of BasicFlow's scenario, and a copy tagged live-only, in one child, against
 * a fake provider of its own: the requests it got are this run's alone.
 */
async function runBoth(
  env: Record<string, string>,
  signal?: AbortSignal,
): Promise<{ run: ChildRun; requests: FakeOpenAI["requests"]; remove: () => void }> {
  const dir = await tempDir("live-skips");
  const fake = await startFakeOpenAI(Object.values(basicFlowScripts));
  try {
    const basic = writeScenario(dir.path, "basic-flow", readBasicFlow());
    const liveOnly = writeScenario(dir.path, "live-only-flow", { ...readBasicFlow(), tags: ["live-only"] });
    const spec = join(dir.path, "skips.spec.ts");
    writeFileSync(
      spec,
      [
        `import { describeFlowScenarios } from ${JSON.stringify(join(ROOT, "src", "testing", "index.ts"))};`,
        `import { basicFlowEntry } from ${JSON.stringify(join(ROOT, "test", "fixtures", "flows", "index.ts"))};`,
        `const artifactsDir = ${JSON.stringify(join(dir.path, "artifacts"))};`,
        `describeFlowScenarios("BasicFlow", { files: [${JSON.stringify(basic)}], flows: [basicFlowEntry], artifactsDir });`,
        `describeFlowScenarios("BasicFlow", { files: [${JSON.stringify(liveOnly)}], flows: [basicFlowEntry], artifactsDir });`,
        "",
      ].join("\n"),
    );
    const run = await runSpec(spec, { OPENAI_BASE_URL: fake.baseURL, ...env }, signal);
    return { run, requests: fake.requests, remove: dir.remove };
  } catch (error) {
    dir.remove();
    throw error;
  } finally {
    await fake.close();
  }
}

// Each run has its own folder, fake provider and child, so they run side by side.
describe("what cannot be judged is skipped or failed, never passed", { concurrency: 3 }, () => {
  describe("without OPENAI_API_KEY", () => {
    let run: ChildRun;
    let requests: FakeOpenAI["requests"];
    let remove = () => {};

    before(async () => {
      ({ run, requests, remove } = await runBoth({}));
    });

    after(() => remove());

    test("the judge tests are skipped with the no-key reason while every turn passes, and no request is made", () => {
      assert.equal(run.code, 0, run.stdout + run.stderr);
      const results = tapResults(run.stdout);
      for (const name of JUDGE_TESTS)
        assert.deepEqual(result(results, name), { ok: true, directive: `SKIP ${NO_KEY}`, error: undefined }, name);
      for (const name of [...TURN_TESTS, "final state"])
        assert.deepEqual(result(results, name), { ok: true, directive: undefined, error: undefined }, name);
      assert.equal(requests.length, 0);
    });

    test("a scenario tagged live-only is skipped as a whole with its reason when its flow would run scripted", () => {
      const results = tapResults(run.stdout);
      assert.deepEqual(result(results, "BasicFlow: live-only-flow"), {
        ok: true,
        directive: `SKIP ${LIVE_ONLY}`,
        error: undefined,
      });
      assert.deepEqual(result(results, "BasicFlow: basic-flow"), { ok: true, directive: undefined, error: undefined });
      // Only the untagged scenario's 13 tests ran: the live-only one has none.
      assert.match(run.stdout, /^# tests 13$/m);
      assert.match(run.stdout, /^# skipped 5$/m);
    });
  });

  test("with JUDGE=off and a key, the judge tests are skipped saying JUDGE=off, and the judge is never asked", async (t) => {
    const { run, requests, remove } = await runBoth({ JUDGE: "off", OPENAI_API_KEY: "test-key" }, t.signal);
    try {
      assert.equal(run.code, 0, run.stdout + run.stderr);
      const results = tapResults(run.stdout);
      for (const name of JUDGE_TESTS) {
        assert.deepEqual(
          result(results, name),
          { ok: true, directive: "SKIP JUDGE=off, so expectedResponse is not graded", error: undefined },
          name,
        );
      }
      assert.equal(requests.length, 0);
    } finally {
      remove();
    }
  });

  test("with JUDGE=required and no key, every judge test fails saying the judge is required, while the turns pass", async (t) => {
    const { run, requests, remove } = await runBoth({ JUDGE: "required" }, t.signal);
    try {
      assert.equal(run.code, 1, run.stdout + run.stderr);
      const results = tapResults(run.stdout);
      JUDGE_TESTS.forEach((name) => {
        const found = result(results, name);
        assert.equal(found.ok, false, name);
        const turn = name.replace(/ · judge$/, "");
        const [number, label] = [turn.slice(0, turn.indexOf(".")), turn.slice(turn.indexOf(".") + 2)];
        assert.match(
          found.error ?? "",
          new RegExp(
            `^[^ ]+\\.scenario\\.json:\\d+: turn ${number} '${label}': JUDGE=required, but ${NO_KEY}\nTranscript: `,
          ),
          name,
        );
      });
      for (const name of [...TURN_TESTS, "final state"])
        assert.deepEqual(result(results, name), { ok: true, directive: undefined, error: undefined }, name);
      assert.match(run.stdout, /^# fail 5$/m);
      assert.equal(requests.length, 0);
    } finally {
      remove();
    }
  });
});
