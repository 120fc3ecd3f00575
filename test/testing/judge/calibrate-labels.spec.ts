import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { calibrationItems } from "../../../src/testing/judge/calibrate-labels.ts";
import { answerSha256, type JudgeLabel } from "../../../src/testing/judge/judge-labels.ts";

const CASES = "test/fixtures/scenarios/basic-flow-placeholder-names.scenario.json";

function label(fields: Partial<JudgeLabel> & Pick<JudgeLabel, "file" | "turn" | "expected">): JudgeLabel {
  const answer = fields.answer ?? "Jane Doe looks like a placeholder. What is your real name?";
  return { answer, answerSha256: answerSha256(answer), human: "pass", ...fields };
}

test("a label of a case is graded as that case's turn: its input and expectation with the case's values", () => {
  const expected = "The assistant should say Jane Doe looks like a placeholder and ask for the user's real name.";
  const { items, setAside } = calibrationItems(
    [label({ file: CASES, turn: "placeholder refused", caseLabel: "Jane Doe", expected })],
    "judge-model",
  );
  assert.deepEqual(setAside, []);
  const [item] = items;
  assert.equal(item!.location, `${CASES}:15`);
  assert.equal(item!.request.model, "judge-model");
  assert.equal(item!.minScore, 0.75);
  assert.equal(item!.expectedNow, undefined, "the case's expectation is the label's");
  const material = JSON.parse(item!.request.user) as { latestUserMessage: string; expectation: string };
  assert.deepEqual(material, {
    conversation: [],
    latestUserMessage: "Jane Doe",
    answer: "Jane Doe looks like a placeholder. What is your real name?",
    expectation: expected,
  });
});

test("a label of a case the scenario no longer has is set aside, naming the closest case", () => {
  const { items, setAside } = calibrationItems(
    [label({ file: CASES, turn: "placeholder refused", caseLabel: "Jane Do", expected: "x" })],
    "judge-model",
  );
  assert.equal(items.length, 0);
  assert.match(setAside[0]!.why, /^labels\[0\]: .* has no case "Jane Do"; the closest is "Jane Doe"/);
});

test("a whole conversation's label is graded against the scenario's success.judge, with the whole-conversation prompt", () => {
  const dir = mkdtempSync(join(tmpdir(), "flowcheck-calibrate-labels-"));
  try {
    const file = join(dir, "whole.scenario.json");
    const scenario = {
      flowName: "BasicFlow",
      judgeModel: "scenario-judge",
      turns: [{ label: "greeting", input: "Hello", expectedActiveStep: "NameStep" }],
      user: { persona: "John Wick, in a hurry.", goal: "Give his name." },
      success: { judge: "The assistant learns the user's name.", minScore: 0.9 },
    };
    writeFileSync(file, JSON.stringify(scenario, null, 2));
    const whole = label({
      file,
      turn: "the whole conversation",
      expected: "The assistant learns the user's name.",
      whole: true,
      input: "John Wick",
      conversation: [{ user: "Hello", assistant: "Hi! Your name?" }],
      answer: "Thanks, John Wick.",
    });
    const [item] = calibrationItems([whole], "judge-model").items;
    assert.equal(item!.request.model, "scenario-judge");
    assert.equal(item!.minScore, 0.9);
    assert.match(item!.request.system, /You grade a whole conversation/);
    assert.deepEqual(JSON.parse(item!.request.user), {
      conversation: [
        { user: "Hello", assistant: "Hi! Your name?" },
        { user: "John Wick", assistant: "Thanks, John Wick." },
      ],
      criterion: "The assistant learns the user's name.",
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
