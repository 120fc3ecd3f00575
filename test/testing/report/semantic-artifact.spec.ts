import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { after, before, test } from "node:test";
import type { Transcript } from "../../../src/testing/index.ts";
import { basicFlowScripts } from "../../fixtures/flows/index.ts";
import { startFakeOpenAI, PASSING_VERDICT, type FakeOpenAI } from "../../support/fake-openai-server.ts";
import { tempDir } from "../../support/temp-path.ts";
import {
  BASIC_FLOW_FILE,
  JUDGE_TESTS,
  result,
  ROOT,
  runCommand,
  runSpec,
  tapResults,
  TURN_TESTS,
  writeSpec,
} from "../../support/child-run.ts";
import { turnLocation } from "../../support/turn-location.ts";

// A judge that fails one turn of BasicFlow with a reason, what is missing and what contradicts:
// the run goes on, and `<scenario>-semantic-failure.json` holds the transcript and the verdict.

let fake: FakeOpenAI;

before(async () => {
  fake = await startFakeOpenAI(Object.values(basicFlowScripts));
});

after(async () => {
  await fake.close();
});

const VERDICT = {
  pass: true,
  score: 0.6,
  reason: "It greets John Wick but never asks for city aliases.",
  missing: ["a request for two city aliases"],
  contradictions: ["calls the user Mr. Doe"],
};
const MESSAGE =
  "score 0.6 is below 0.75: It greets John Wick but never asks for city aliases. | missing: a request for two city aliases | contradictions: calls the user Mr. Doe";

test("a judge failing turn 2 writes the semantic artifact with the whole transcript and the verdict, the later turns still run, and npm run transcript renders it", async (t) => {
  const dir = await tempDir("live-semantic");
  try {
    const artifacts = join(dir.path, "artifacts");
    // Turn 2's judge request is the one whose latest user message is "John Wick".
    fake.answer = (request) =>
      request.response_format?.type === "json_object"
        ? {
            judge:
              JSON.parse(request.messages[1]?.content ?? "{}").latestUserMessage === "John Wick"
                ? JSON.stringify(VERDICT)
                : PASSING_VERDICT,
          }
        : undefined;
    const run = await runSpec(
      writeSpec(dir.path, BASIC_FLOW_FILE, artifacts),
      { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: fake.baseURL, JUDGE_CACHE: "off" },
      t.signal,
    );
    assert.equal(run.code, 1, run.stdout + run.stderr);

    const artifact = join(artifacts, "basic-flow-semantic-failure.json");
    const shown = relative(ROOT, artifact);
    const results = tapResults(run.stdout);
    assert.deepEqual(result(results, "2. name accepted · judge"), {
      ok: false,
      directive: undefined,
      error: `${turnLocation(BASIC_FLOW_FILE, "name accepted", ROOT)}: turn 2 'name accepted': ${MESSAGE}\nTranscript: ${shown} (flowcheck transcript ${shown})`,
    });
    // A judge failure does not stop the conversation: every turn and the final state still pass.
    for (const name of [...TURN_TESTS, "final state", ...JUDGE_TESTS.filter((n) => !n.startsWith("2."))]) {
      assert.deepEqual(result(results, name), { ok: true, directive: undefined, error: undefined }, name);
    }
    assert.match(run.stdout, /^# fail 1$/m);
    assert.equal(existsSync(join(artifacts, "basic-flow-contract-failure.json")), false);

    const transcript = JSON.parse(readFileSync(artifact, "utf8")) as Transcript;
    assert.equal(transcript.kind, "semantic");
    assert.equal(transcript.outcome, "failed");
    assert.equal(transcript.scenario.name, "basic-flow");
    assert.equal(
      transcript.failure,
      `${turnLocation(BASIC_FLOW_FILE, "name accepted", ROOT)}: turn 2 'name accepted': ${MESSAGE}; response: "Nice to meet you, John Wick. Which two cities should I check? Give two aliases, like LA, NYC."`,
    );
    assert.deepEqual(
      transcript.turns.map((turn) => [turn.number, turn.label, turn.outcome]),
      [
        [1, "name rejected", "passed"],
        [2, "name accepted", "passed"],
        [3, "two cities", "passed"],
        [4, "bad zip stays", "passed"],
        [5, "address completes the flow", "passed"],
        [6, "completed session refuses more", "passed"],
      ],
    );
    assert.equal(transcript.final?.outcome, "passed");
    const judged = transcript.turns.map((turn) => turn.checks.find((c) => c.contract === "judge"));
    assert.deepEqual(judged[1], {
      contract: "judge",
      name: "expectedResponse",
      outcome: "failed",
      message: MESSAGE,
      verdict: { ...VERDICT, minScore: 0.75 },
      expected: "The assistant should greet John Wick and ask for two city aliases.",
    });
    // The other judged turns carry their passing verdicts too; the last turn has no expectedResponse.
    for (const index of [0, 2, 3, 4]) {
      const { expected, ...check } = judged[index]!;
      assert.equal(typeof expected, "string", `turn ${index + 1}'s judge check names the expectation it graded`);
      assert.deepEqual(check, {
        contract: "judge",
        name: "expectedResponse",
        outcome: "passed",
        verdict: { ...JSON.parse(PASSING_VERDICT), minScore: 0.75 },
      });
    }
    assert.equal(judged[5], undefined);

    const rendered = await runCommand("npm", ["run", "--silent", "transcript", "--", artifact], {}, t.signal);
    assert.equal(rendered.code, 0, rendered.stderr);
    const lines = rendered.stdout.split("\n");
    assert.match(lines[0]!, /^BasicFlow · basic-flow \(.*basic-flow\.scenario\.json\) — FAILED \(semantic\)$/);
    assert.ok(lines.includes(transcript.failure), rendered.stdout);
    assert.match(rendered.stdout, /^── 2\. name accepted ✓ {2}200 · \d+\.\d ms$/m);
    assert.ok(lines.includes(`   ✗ judge expectedResponse: ${MESSAGE}`), rendered.stdout);
    assert.match(rendered.stdout, /^── 6\. completed session refuses more ✓ {2}409 · /m);
    assert.ok(lines.includes("── final state ✓"), rendered.stdout);
  } finally {
    fake.answer = () => undefined;
    dir.remove();
  }
});
