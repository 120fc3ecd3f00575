import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, test } from "node:test";
import type { Scenario, ScenarioTurn, TurnReport } from "../../../src/testing/index.ts";
import type { JudgeRequest } from "../../../src/testing/judge/judge-client.ts";
import { judgePrompt, type WholeJudgeMaterial } from "../../../src/testing/judge/judge-prompt.ts";
import { createLlmJudge } from "../../../src/testing/judge/llm-judge.ts";
import { PASSING_VERDICT } from "../../support/fake-openai-server.ts";

// success.judge grades a simulated conversation as a whole, with a prompt of its own; the per-turn
// prompt stays word for word what judge caches and cassettes hold.

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

const scenario: Scenario = { flowName: "BasicFlow", judgeInstructions: "Be kind.", turns: [] };
const history: TurnReport[] = [
  { number: 1, label: "opening", input: "Hi", answer: "What is your name?", outcome: "passed", checks: [] },
  // A turn with no answer is not part of the conversation graded.
  { number: 2, label: "lost", input: "hello?", outcome: "failed", checks: [] },
  { number: 3, label: "user: Ada", input: "Ada Lovelace", answer: "Which two cities?", outcome: "passed", checks: [] },
];
const last: ScenarioTurn = {
  label: "the whole conversation",
  input: "LA, NYC",
  expectedResponse: "The assistant reported the weather for both cities.",
};
const answer = { mediaType: "", json: undefined, events: undefined, text: "LA 72, NYC 65.", problems: [] };

/** The one request a judge sends for `whole` (or a per-turn request), answered with a passing verdict. */
async function requestOf(whole: boolean): Promise<JudgeRequest> {
  const sent: JudgeRequest[] = [];
  const judge = createLlmJudge({
    client: async (request) => {
      sent.push(request);
      return { content: PASSING_VERDICT, usage: undefined, source: "live" };
    },
    model: "judge-model",
  });
  const check = await judge({ scenario, turn: last, answer, history, ...(whole ? { whole } : {}) });
  assert.equal(check.outcome, "passed", check.message);
  assert.equal(sent.length, 1);
  return sent[0]!;
}

describe("the judge's whole-conversation mode", () => {
  test("grades every answered turn, the last one too, against the criterion, with rules of its own and the flow's instructions", async () => {
    const whole = await requestOf(true);
    const perTurn = await requestOf(false);
    assert.notEqual(whole.system, perTurn.system);
    assert.match(whole.system, /^You grade a whole conversation of a conversational assistant against a criterion/);
    assert.match(whole.system, /not its last answer alone\./);
    assert.ok(whole.system.endsWith("\nRules for this flow, which override the ones above:\nBe kind."), whole.system);
    const material: WholeJudgeMaterial = {
      conversation: [
        { user: "Hi", assistant: "What is your name?" },
        { user: "Ada Lovelace", assistant: "Which two cities?" },
        { user: "LA, NYC", assistant: "LA 72, NYC 65." },
      ],
      criterion: "The assistant reported the weather for both cities.",
    };
    assert.equal(whole.user, JSON.stringify(material, null, 2));
  });

  test("leaves the per-turn prompt word for word as judge caches and cassettes hold it", async () => {
    const perTurn = await requestOf(false);
    assert.deepEqual(JSON.parse(perTurn.user), {
      conversation: [
        { user: "Hi", assistant: "What is your name?" },
        { user: "Ada Lovelace", assistant: "Which two cities?" },
      ],
      latestUserMessage: "LA, NYC",
      answer: "LA 72, NYC 65.",
      expectation: "The assistant reported the weather for both cities.",
    });
    // The rules and the user message as they were before the whole-conversation mode existed.
    const pinned = judgePrompt({
      conversation: [{ user: "John Doe", assistant: "Who?" }],
      input: "John Wick",
      answer: "Hi John",
      expectation: "Greets John.",
      instructions: "Be kind.",
    });
    assert.equal(sha256(pinned.system), "15fb95a43b5915e874ed89805fa669017b4bfd07a717d4154eff9755cacccd7e");
    assert.equal(sha256(pinned.user), "e7f8116c88586ac1266ea9c2d68afa601679d9f531af7aa2ad1c124a5e8c2dc2");
    assert.equal(perTurn.system, pinned.system);
  });
});
