import assert from "node:assert/strict";
import { test } from "node:test";
import type { Mutant } from "../../../src/testing/strength/mutant.ts";
import { failed } from "../../../src/testing/checks/check.ts";
import { mutantVerdict } from "../../../src/testing/strength/mutant-verdict.ts";
import { differenceLine, renderStrength } from "../../../src/testing/strength/render-strength.ts";
import { strengthScores } from "../../../src/testing/strength/strength-score.ts";
import { builtPlay, type BuiltTurn } from "../../support/strength-plays.ts";

const rejected: BuiltTurn = {
  label: "name rejected",
  step: "NameStep",
  steps: { NameStep: {} },
  answer: "A placeholder.",
};
const accepted = (name: string, extra: Partial<BuiltTurn> = {}): BuiltTurn => ({
  label: "name accepted",
  step: "WeatherStep",
  steps: { NameStep: { name } },
  answer: `Nice to meet you, ${name}. Which two cities?`,
  ...extra,
});
const baseline = builtPlay("name-flow", [rejected, accepted("Ada")]);

test("a mutant whose every play passed with nothing observable changed is equivalent", () => {
  assert.deepEqual(mutantVerdict([{ baseline, mutated: builtPlay("name-flow", [rejected, accepted("Ada")]) }]), {
    verdict: "equivalent",
  });
});

test("an answer naming its own play's session is not a difference: each play starts a session of its own", () => {
  const ended = (session: string): BuiltTurn => ({
    label: "ended session refuses more",
    step: "WeatherStep",
    steps: { NameStep: { name: "Ada" } },
    answer: `Session "${session}" of BasicFlow has ended (runStatus completed); start a new session to talk again.`,
  });
  const play = (session: string) => builtPlay("name-flow", [accepted("Ada"), ended(session)], session);
  assert.deepEqual(mutantVerdict([{ baseline: play("aaaa-1"), mutated: play("bbbb-2") }]), { verdict: "equivalent" });
});

test("a mutant no scenario reached is not reached", () => {
  assert.deepEqual(mutantVerdict([]), { verdict: "not-reached" });
});

test("a survivor names the turn, what it stored otherwise, and the expectation that would catch it", () => {
  const verdict = mutantVerdict([{ baseline, mutated: builtPlay("name-flow", [rejected, accepted("Ada·")]) }]);
  assert.equal(verdict.verdict, "survived");
  assert.deepEqual(verdict.verdict === "survived" ? verdict.differences.map(differenceLine) : [], [
    `name-flow turn 2 'name accepted': NameStep.name saved as "Ada·" instead of "Ada" and nothing checked it — ` +
      `add "expectState": { "NameStep": { "name": "Ada" } }`,
    `name-flow turn 2 'name accepted': the answer was "Nice to meet you, Ada·. Which two cities?" instead of ` +
      `"Nice to meet you, Ada. Which two cities?" and nothing checked it — add "responseMustInclude": ["Ada. Which"]`,
  ]);
});

test("a survivor that moved the flow or ended it asks for expectedActiveStep or completed", () => {
  const mutated = builtPlay("name-flow", [rejected, accepted("Ada", { step: "AddressStep", runStatus: "completed" })]);
  const verdict = mutantVerdict([{ baseline, mutated }]);
  assert.deepEqual(
    verdict.verdict === "survived" ? verdict.differences.map((difference) => difference.expectation) : verdict,
    ['"expectedActiveStep": "WeatherStep"', '"completed": false'],
  );
});

test("a kill names the scenario, turn and failed check", () => {
  const check = failed("expectation", "expectState.NameStep", 'name: expected "Ada", found "Ada·"');
  const verdict = mutantVerdict([
    { baseline, mutated: builtPlay("name-flow", [rejected, accepted("Ada·", { failed: check })]) },
  ]);
  assert.deepEqual(
    { ...verdict, message: undefined },
    {
      verdict: "killed",
      by: "check",
      scenario: "name-flow",
      turn: { number: 2, label: "name accepted" },
      check: "expectation expectState.NameStep",
      message: undefined,
    },
  );
});

test("a kill by the scripted model alone is told apart, with what the turns before it changed", () => {
  const refused = failed("transport", "status", "expected status 200, got 502 (script_unmatched)");
  const mutated = builtPlay("name-flow", [
    { ...rejected, answer: "A placeholder!" },
    accepted("Ada", { failed: refused, body: { success: false, error: { code: "script_unmatched", message: "" } } }),
  ]);
  const verdict = mutantVerdict([{ baseline, mutated }]);
  assert.equal(verdict.verdict === "killed" && verdict.by, "script");
  assert.deepEqual(
    verdict.verdict === "killed"
      ? verdict.differences?.map((difference) => [difference.turn, difference.expectation])
      : [],
    [[1, '"responseMustInclude": ["placeholder."]']],
  );
});

test("a turn that ran out of time is a timeout, not a check's kill", () => {
  const late = failed(
    "transport",
    "request",
    "POST http://127.0.0.1:1/ai/chat gave no whole answer within 50 ms (FLOW_TURN_TIMEOUT_MS); raise it",
  );
  const verdict = mutantVerdict([
    { baseline, mutated: builtPlay("name-flow", [rejected, accepted("Ada", { failed: late })]) },
  ]);
  assert.equal(verdict.verdict, "timed-out");
});

const mutant = (id: string): Mutant => ({ id, flow: "BasicFlow", step: "NameStep", change: { kind: "drop-handoff" } });

test("a flow's score is killed (timeouts among them) over killed and survived; equivalent mutants do not lower it", () => {
  const survivor = mutantVerdict([{ baseline, mutated: builtPlay("name-flow", [rejected, accepted("Ada·")]) }]);
  const judged = [
    { mutant: mutant("killed"), verdict: { verdict: "killed", by: "check", scenario: "s", check: "c", message: "" } },
    { mutant: mutant("late"), verdict: { verdict: "timed-out", scenario: "s", check: "timeout", message: "" } },
    { mutant: mutant("survivor"), verdict: survivor },
    { mutant: mutant("same"), verdict: { verdict: "equivalent" } },
    { mutant: mutant("same too"), verdict: { verdict: "equivalent" } },
  ] as const;
  const scores = strengthScores(judged);
  assert.deepEqual(scores, [
    { flow: "BasicFlow", score: 2 / 3, killed: 1, survived: 1, timedOut: 1, equivalent: 2, notReached: 0 },
  ]);
  const text = renderStrength({ scenarios: ["name-flow"], failing: [], judged: [...judged], scores });
  assert.match(text, /^BasicFlow: 0\.67 \(1 killed, 1 timed out, 1 survived, 2 equivalent, 0 not reached\)$/m);
  assert.match(text, /^survived survivor\n {2}name-flow turn 2 'name accepted': NameStep\.name saved as "Ada·"/m);
  assert.match(text, /^timed out late: s final state \(counted as killed\)$/m);
});
