import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import type { Answer } from "../../../src/testing/answer/read-answer.ts";
import { Cassette } from "../../../src/testing/cassette/cassette.ts";
import type { CassetteFile } from "../../../src/testing/cassette/cassette-file.ts";
import type { Check } from "../../../src/testing/checks/check.ts";
import type { Scenario, ScenarioTurn } from "../../../src/testing/index.ts";
import { JudgeCache } from "../../../src/testing/judge/judge-cache.ts";
import { openAIJudgeClient } from "../../../src/testing/judge/judge-client.ts";
import { createLlmJudge, newJudgeStats, type JudgeStats } from "../../../src/testing/judge/llm-judge.ts";
import type { FakeOpenAI } from "../../support/fake-openai-server.ts";
import { fakeOpenAIPerFile } from "../../support/fake-openai-per-file.ts";
import { tempDir } from "../../support/temp-path.ts";

// JUDGE_SAMPLES in the judge itself: a local OpenAI-compatible judge answers each request with the
// verdict the test sets for it, in order, and the check is the majority of the samples.

let fake: FakeOpenAI;
fakeOpenAIPerFile([], (started) => (fake = started));

const TEXT = "Nice to meet you, John Wick. Which two cities should I check?";

function verdict(pass: boolean, score: number, reason = `scored ${score}`, missing: string[] = []): string {
  return JSON.stringify({ pass, score, reason, missing, contradictions: [] });
}

/** The fake's judge answers, one per request in order. */
function judgeAnswers(...texts: string[]): void {
  fake.answer = (_request, index) => ({ judge: texts[index] ?? verdict(true, 1, "past the answers set") });
}

function liveClient() {
  return openAIJudgeClient({ apiKey: "test-key", baseURL: fake.baseURL, maxRetries: 0, timeoutMs: 5000 });
}

function judgeOf(options: {
  samples: number;
  unstable?: "report" | "fail";
  cache?: JudgeCache;
  stats?: JudgeStats;
  client?: ReturnType<typeof liveClient>;
}) {
  return createLlmJudge({ client: liveClient(), model: "judge-model", ...options });
}

function grade(judge: ReturnType<typeof createLlmJudge>): Promise<Check> {
  const turn: ScenarioTurn = {
    label: "name accepted",
    input: "John Wick",
    expectedResponse: "The assistant should greet John Wick and ask for two city aliases.",
  };
  const scenario: Scenario = { flowName: "BasicFlow", turns: [turn] };
  const answer: Answer = {
    mediaType: "application/json",
    json: { response: TEXT },
    events: undefined,
    text: TEXT,
    problems: [],
  };
  return judge({ scenario, turn, answer, history: [] });
}

describe("a verdict of JUDGE_SAMPLES samples", () => {
  test("three samples are three identical requests; the verdict is their majority with the median score, each sample kept, unstable when they disagree", async () => {
    judgeAnswers(
      verdict(true, 0.9, "Greets and asks."),
      verdict(true, 0.4, "Asks for one city."),
      verdict(true, 0.8, "Greets, asks for two."),
    );
    const stats = newJudgeStats();
    const check = await grade(judgeOf({ samples: 3, stats }));
    assert.equal(fake.requests.length, 3);
    assert.deepEqual(fake.requests[1], fake.requests[0]);
    assert.deepEqual(fake.requests[2], fake.requests[0]);
    assert.equal(stats.calls, 3);
    assert.equal(check.outcome, "passed", check.message);
    assert.deepEqual(check.verdict, {
      pass: true,
      score: 0.8,
      reason: "Greets, asks for two.",
      missing: [],
      contradictions: [],
      minScore: 0.75,
      samples: [
        { pass: true, score: 0.9, reason: "Greets and asks." },
        { pass: true, score: 0.4, reason: "Asks for one city." },
        { pass: true, score: 0.8, reason: "Greets, asks for two." },
      ],
      unstable: true,
    });
  });

  test("samples that agree make a stable verdict", async () => {
    judgeAnswers(verdict(true, 0.9), verdict(true, 0.95), verdict(true, 0.8));
    const check = await grade(judgeOf({ samples: 3 }));
    assert.equal(check.outcome, "passed");
    assert.equal(check.verdict?.unstable, false);
    assert.equal(check.verdict?.score, 0.9);
  });

  test("most samples failing fails the check with the median score, the count and the failing side's reason and missing", async () => {
    judgeAnswers(
      verdict(false, 0.3, "No cities asked.", ["two city aliases"]),
      verdict(true, 0.9, "Fine."),
      verdict(false, 0.2, "Ignores the name.", ["the greeting"]),
    );
    const check = await grade(judgeOf({ samples: 3 }));
    assert.equal(check.outcome, "failed");
    assert.equal(
      check.message,
      "most samples did not pass it at 0.75 (1 of 3 samples passed, scores 0.3 0.9 0.2, median 0.3): No cities asked. | missing: two city aliases",
    );
    assert.equal(check.verdict?.pass, false);
    assert.equal(check.verdict?.unstable, true);
  });

  test("JUDGE_UNSTABLE=fail fails a verdict whose majority passed, saying the samples disagreed, their scores, and what report does", async () => {
    judgeAnswers(verdict(true, 0.9, "Good."), verdict(false, 0.4, "Bad."), verdict(true, 0.8, "Good enough."));
    const check = await grade(judgeOf({ samples: 3, unstable: "fail" }));
    assert.equal(check.outcome, "failed");
    assert.equal(
      check.message,
      "the judge's samples disagreed (2 of 3 samples passed, scores 0.9 0.4 0.8, median 0.8; the majority passed it), " +
        "and JUDGE_UNSTABLE=fail fails an unstable verdict; JUDGE_UNSTABLE=report only reports it: Good enough.",
    );
    judgeAnswers(verdict(true, 0.9), verdict(true, 0.85), verdict(true, 0.8));
    fake.requests.length = 0;
    assert.equal((await grade(judgeOf({ samples: 3, unstable: "fail" }))).outcome, "passed", "a stable verdict stands");
  });

  test("a sample whose answer is not a verdict is asked again once; one that fails twice fails the check naming the sample, and no later sample is asked", async () => {
    judgeAnswers(verdict(true, 0.9), "not json", verdict(true, 0.8), verdict(true, 0.85));
    const retried = await grade(judgeOf({ samples: 3 }));
    assert.equal(retried.outcome, "passed", retried.message);
    assert.equal(fake.requests.length, 4);
    assert.deepEqual(
      retried.verdict?.samples?.map((sample) => sample.score),
      [0.9, 0.8, 0.85],
    );

    fake.requests.length = 0;
    judgeAnswers(verdict(true, 0.9), "not json", '{"pass": true}');
    const failed = await grade(judgeOf({ samples: 3 }));
    assert.equal(fake.requests.length, 3);
    assert.equal(failed.outcome, "failed");
    assert.match(
      failed.message ?? "",
      /^the judge judge-model gave no valid verdict for sample 2 of 3 in 2 tries \(want \{pass, score, reason, missing, contradictions\}\); it answered the answer is not JSON: "not json", then "score" is missing/,
    );
  });

  test("samples neither read nor write the judge cache: a second grading asks k times again", async () => {
    const dir = await tempDir("judge-samples-cache");
    try {
      const cache = new JudgeCache(dir.path);
      const stats = newJudgeStats();
      const judge = judgeOf({ samples: 3, cache, stats });
      fake.answer = () => ({ judge: verdict(true, 0.9) });
      await grade(judge);
      await grade(judge);
      assert.equal(fake.requests.length, 6);
      assert.deepEqual(stats, { calls: 6, cached: 0, replayed: 0, promptTokens: 600, completionTokens: 120 });
      assert.deepEqual(readdirSync(dir.path), []);
    } finally {
      dir.remove();
    }
  });

  test("one sample is today's judge: one request, no samples or unstable on its verdict", async () => {
    judgeAnswers(verdict(true, 0.4, "Asks for one city."));
    const check = await grade(judgeOf({ samples: 1 }));
    assert.equal(fake.requests.length, 1);
    assert.deepEqual(check, {
      contract: "judge",
      name: "expectedResponse",
      outcome: "failed",
      message: "score 0.4 is below 0.75: Asks for one city.",
      verdict: {
        pass: true,
        score: 0.4,
        reason: "Asks for one city.",
        missing: [],
        contradictions: [],
        minScore: 0.75,
      },
      expected: "The assistant should greet John Wick and ask for two city aliases.",
    });
  });

  test("a cassette tapes each sample with its index and k; replayed with another JUDGE_SAMPLES it fails with cassette_mismatch naming both, and a call taped with no sample replays with one", async () => {
    const dir = await tempDir("judge-samples-cassette");
    try {
      const loaded = {
        file: join(dir.path, "sampled.scenario.json"),
        name: "sampled",
        scenario: { flowName: "BasicFlow", turns: [] },
      };
      const options = { modelName: "gpt-4o-mini", ci: false };
      const recorder = Cassette.open(loaded, "record", options);
      judgeAnswers(verdict(true, 0.9), verdict(true, 0.4), verdict(true, 0.8));
      assert.equal((await grade(judgeOf({ samples: 3, client: recorder.judge(liveClient()) }))).outcome, "passed");
      recorder.save();
      const tape = JSON.parse(readFileSync(recorder.path, "utf8")) as CassetteFile;
      assert.deepEqual(
        tape.calls.map((call) => [call.kind, call.sample]),
        [
          ["judge", { index: 1, of: 3 }],
          ["judge", { index: 2, of: 3 }],
          ["judge", { index: 3, of: 3 }],
        ],
      );

      const player = () => Cassette.open(loaded, "replay", options).judge(undefined);
      const stats = newJudgeStats();
      const replayed = await grade(judgeOf({ samples: 3, client: player(), stats }));
      assert.deepEqual(
        replayed.verdict?.samples?.map((sample) => sample.score),
        [0.9, 0.4, 0.8],
      );
      assert.equal(stats.replayed, 3);
      const once = await grade(judgeOf({ samples: 1, client: player() }));
      assert.equal(once.outcome, "failed");
      assert.match(
        once.message ?? "",
        /^the judge model judge-model failed: cassette_mismatch: Replay of .*sampled\.cassette\.json: call 1 \(turn 0 '\(before the first turn\)', judge\) was recorded with JUDGE_SAMPLES=3, and this run has JUDGE_SAMPLES=1: replay it with JUDGE_SAMPLES=3\./,
      );
      assert.equal(fake.requests.length, 3, "replays made no request");

      // A cassette taped before samples: its judge calls carry no sample, as one sample's still do.
      writeFileSync(
        recorder.path,
        JSON.stringify({ ...tape, calls: tape.calls.slice(0, 1).map(({ sample: _, ...call }) => call) }),
      );
      assert.equal((await grade(judgeOf({ samples: 1, client: player() }))).verdict?.score, 0.9);
      assert.match(
        (await grade(judgeOf({ samples: 3, client: player() }))).message ?? "",
        /was recorded with JUDGE_SAMPLES=1, and this run has JUDGE_SAMPLES=3/,
      );
    } finally {
      dir.remove();
    }
  });
});
