import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { openAIJudgeClient } from "../../../src/testing/judge/judge-client.ts";
import { createLlmJudge } from "../../../src/testing/judge/llm-judge.ts";
import type { Scenario, ScenarioTurn } from "../../../src/testing/index.ts";
import type { Check } from "../../../src/testing/checks/check.ts";
import type { Answer } from "../../../src/testing/answer/read-answer.ts";
import { basicFlowScripts } from "../../fixtures/flows/index.ts";
import { type FakeOpenAI } from "../../support/fake-openai-server.ts";
import { fakeOpenAIPerFile } from "../../support/fake-openai-per-file.ts";

// The LLM judge against a local OpenAI-compatible server whose judge answers each test picks:
// unparsable text, a low score, a missing `pass`, `pass: false` with a full score.

let fake: FakeOpenAI;
fakeOpenAIPerFile(Object.values(basicFlowScripts), (started) => (fake = started));

const ANSWER_TEXT = "Nice to meet you, John Wick. Which two cities should I check? Give two aliases, like LA, NYC.";
const REASON = "It greets John Wick but asks for one city only.";

function answerOf(text: string): Answer {
  return {
    mediaType: "application/json",
    json: { success: true, response: text },
    events: undefined,
    text,
    problems: [],
  };
}

/** Grades one turn of a one-turn scenario with the judge on the fake, as a scenario run would. */
function grade(options: { scenario?: Partial<Scenario>; turn?: Partial<ScenarioTurn> } = {}): Promise<Check> {
  const turn: ScenarioTurn = {
    label: "name accepted",
    input: "John Wick",
    expectedResponse: "The assistant should greet John Wick and ask for two city aliases.",
    ...options.turn,
  };
  const scenario: Scenario = { flowName: "BasicFlow", turns: [turn], ...options.scenario };
  const judge = createLlmJudge({
    client: openAIJudgeClient({ apiKey: "test-key", baseURL: fake.baseURL, maxRetries: 0, timeoutMs: 5000 }),
    model: "judge-model",
  });
  return judge({ scenario, turn, answer: answerOf(ANSWER_TEXT), history: [] });
}

/** The fake's judge answers, one per request in order; the last one repeats. */
function judgeAnswers(...texts: string[]): void {
  fake.answer = (_request, index) => ({ judge: texts[Math.min(index, texts.length - 1)]! });
}

const lowScore = JSON.stringify({
  pass: true,
  score: 0.6,
  reason: REASON,
  missing: ["a second city alias"],
  contradictions: ["says one city is enough"],
});

describe("the LLM judge's verdicts", () => {
  test("a judge that answers non-JSON twice fails the check quoting both answers, after exactly 2 judge requests", async () => {
    judgeAnswers("Looks good to me!", "PASS (score 0.9)");
    const check = await grade();
    assert.deepEqual(check, {
      contract: "judge",
      name: "expectedResponse",
      outcome: "failed",
      message:
        "the judge judge-model gave no valid verdict in 2 tries (want {pass, score, reason, missing, contradictions}); " +
        'it answered the answer is not JSON: "Looks good to me!", then the answer is not JSON: "PASS (score 0.9)"',
    });
    assert.equal(fake.requests.length, 2);
    for (const request of fake.requests) assert.deepEqual(request.response_format, { type: "json_object" });
    assert.deepEqual(fake.requests[1], fake.requests[0], "the retry asks the same question");
  });

  test("a judge that answers non-JSON and then a valid verdict passes after one retry", async () => {
    judgeAnswers(
      "```json\n{oops",
      JSON.stringify({ pass: true, score: 0.9, reason: "Greets and asks.", missing: [], contradictions: [] }),
    );
    const check = await grade();
    assert.deepEqual(check, {
      contract: "judge",
      name: "expectedResponse",
      outcome: "passed",
      verdict: { pass: true, score: 0.9, reason: "Greets and asks.", missing: [], contradictions: [], minScore: 0.75 },
      expected: "The assistant should greet John Wick and ask for two city aliases.",
    });
    assert.equal(fake.requests.length, 2);
  });

  test("pass true with score 0.6 fails at the default threshold 0.75, naming score, threshold, reason, missing and contradictions", async () => {
    judgeAnswers(lowScore);
    const check = await grade();
    assert.equal(check.outcome, "failed");
    assert.equal(
      check.message,
      `score 0.6 is below 0.75: ${REASON} | missing: a second city alias | contradictions: says one city is enough`,
    );
    assert.deepEqual(check.verdict, {
      pass: true,
      score: 0.6,
      reason: REASON,
      missing: ["a second city alias"],
      contradictions: ["says one city is enough"],
      minScore: 0.75,
    });
    assert.equal(fake.requests.length, 1);
  });

  test("pass true with score 0.6 passes when the turn's minScore is 0.5", async () => {
    judgeAnswers(lowScore);
    const check = await grade({ turn: { minScore: 0.5 } });
    assert.equal(check.outcome, "passed", check.message);
    assert.equal(check.verdict?.minScore, 0.5);
  });

  test("pass true with score 0.6 passes when the scenario's judgeMinScore is 0.5", async () => {
    judgeAnswers(lowScore);
    const check = await grade({ scenario: { judgeMinScore: 0.5 } });
    assert.equal(check.outcome, "passed", check.message);
    assert.equal(check.verdict?.minScore, 0.5);
  });

  test("the turn's minScore wins over the scenario's judgeMinScore", async () => {
    judgeAnswers(lowScore);
    const check = await grade({ scenario: { judgeMinScore: 0.5 }, turn: { minScore: 0.9 } });
    assert.equal(check.outcome, "failed");
    assert.match(check.message ?? "", /^score 0\.6 is below 0\.9: /);
    assert.equal(check.verdict?.minScore, 0.9);
  });

  test("a verdict without pass is a failure, never a pass, and says pass is missing", async () => {
    judgeAnswers(JSON.stringify({ score: 1, reason: "Fine.", missing: [], contradictions: [] }));
    const check = await grade();
    assert.equal(check.outcome, "failed");
    assert.equal(check.verdict, undefined);
    assert.equal(
      check.message,
      "the judge judge-model gave no valid verdict in 2 tries (want {pass, score, reason, missing, contradictions}); " +
        'it answered "pass" is missing: "{\\"score\\":1,\\"reason\\":\\"Fine.\\",\\"missing\\":[],\\"contradictions\\":[]}", ' +
        'then "pass" is missing: "{\\"score\\":1,\\"reason\\":\\"Fine.\\",\\"missing\\":[],\\"contradictions\\":[]}"',
    );
    assert.equal(fake.requests.length, 2);
  });

  test("a verdict with pass false and score 1 fails, naming the score, reason, missing and contradictions", async () => {
    judgeAnswers(
      JSON.stringify({
        pass: false,
        score: 1,
        reason: "It asks for cities but never greets.",
        missing: ["a greeting"],
        contradictions: [],
      }),
    );
    const check = await grade();
    assert.equal(check.outcome, "failed");
    assert.equal(
      check.message,
      "the judge did not pass it (score 1): It asks for cities but never greets. | missing: a greeting",
    );
    assert.deepEqual(check.verdict, {
      pass: false,
      score: 1,
      reason: "It asks for cities but never greets.",
      missing: ["a greeting"],
      contradictions: [],
      minScore: 0.75,
    });
  });

  test("a score above 1 is not a valid verdict and fails after the retry", async () => {
    judgeAnswers(JSON.stringify({ pass: true, score: 7, reason: "Great.", missing: [], contradictions: [] }));
    const check = await grade();
    assert.equal(check.outcome, "failed");
    assert.match(check.message ?? "", /it answered score must be <= 1: .*, then score must be <= 1: /);
    assert.equal(fake.requests.length, 2);
  });

  test("a judge model that answers HTTP 500 fails the check naming the model and the error", async () => {
    fake.answer = () => ({ status: 500, body: { error: { message: "judge overloaded", type: "server_error" } } });
    const check = await grade();
    assert.equal(check.outcome, "failed");
    assert.match(check.message ?? "", /^the judge model judge-model failed: 500 judge overloaded$/);
    assert.equal(fake.requests.length, 1, "maxRetries 0: no retry");
  });
});
