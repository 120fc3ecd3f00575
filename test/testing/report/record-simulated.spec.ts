import assert from "node:assert/strict";
import { test } from "node:test";
import type { FinalReport, TurnReport } from "../../../src/testing/checks/turn-report.ts";
import { ResultsRecorder } from "../../../src/testing/report/results-recorder.ts";
import { localRun, withRun } from "../../../src/testing/report/current-run.ts";
import { RunRecord } from "../../../src/testing/report/run-record.ts";
import type { ConversationResult } from "../../../src/testing/report/run-results.ts";
import type { LoadedScenario } from "../../../src/testing/scenario/scenario.ts";

const ARTIFACTS = "test/.tmp/record-simulated";

const loaded: LoadedScenario = {
  file: "journeys/booking.scenario.json",
  name: "booking",
  scenario: {
    flowName: "BasicFlow",
    turns: [{ label: "opening", input: "hi" }],
    user: { persona: "Ada, a busy nurse", goal: "book a visit for Friday" },
  },
};

function report(number: number, fields: Partial<TurnReport> = {}): TurnReport {
  return {
    number,
    label: number === 1 ? "opening" : `user ${number - 1}`,
    input: `message ${number}`,
    answer: `answer ${number}`,
    outcome: "passed",
    checks: [],
    tokens: { model: { input: 10, output: 2 }, user: { input: 4, output: 1 } },
    ...fields,
  };
}

/** The result the recorder writes of a conversation that started, played `reports`, ended with `final` and passed. */
function played(reports: TurnReport[], final: FinalReport): ConversationResult {
  const run = new RunRecord({ artifactsDir: ARTIFACTS });
  const { listener } = withRun(
    { ...localRun(), scope: run.scope, record: run },
    () => new ResultsRecorder(loaded, ARTIFACTS),
  );
  listener({
    type: "scenario:start",
    scenario: loaded,
    target: { baseUrl: "http://127.0.0.1:1", store: "memory", pins: {} },
  });
  for (const each of reports) listener({ type: "turn:end", report: each });
  listener({ type: "final", report: final });
  listener({ type: "scenario:end", outcome: "passed" });
  const [line] = run.close();
  assert.ok(line && "conversation" in line);
  return line.conversation;
}

test("a simulated conversation's result holds its user's turns after the opening ones, its user as the scenario gives it, who played it, how it ended, and the user's tokens apart", () => {
  const conversation = played(
    [
      report(1, { tokens: { model: { input: 10, output: 2 } } }),
      report(2, { simulated: { turn: 1, reason: "gives the date" } }),
      report(3, { simulated: { turn: 2 } }),
    ],
    {
      outcome: "passed",
      checks: [],
      simulation: { player: "scripted", userTurns: 2, end: { reason: "user-done", detail: "booked for Friday" } },
    },
  );
  assert.equal(conversation.outcome, "passed");
  assert.deepEqual(
    conversation.turns.map((turn) => [turn.number, turn.label, turn.simulated]),
    [
      [1, "opening", undefined],
      [2, "user 1", { turn: 1, reason: "gives the date" }],
      [3, "user 2", { turn: 2 }],
    ],
  );
  assert.deepEqual(conversation.simulation, {
    persona: "Ada, a busy nurse",
    goal: "book a visit for Friday",
    style: "cooperative",
    player: "scripted",
    userTurns: 2,
    end: { reason: "user-done", detail: "booked for Friday" },
  });
  assert.deepEqual(conversation.tokens, {
    model: { input: 30, output: 6 },
    judge: { input: 0, output: 0 },
    user: { input: 8, output: 2 },
  });
  assert.equal("simulation" in (conversation.final ?? {}), false, "said once, on the conversation");
});

test("a conversation that is not simulated has no simulation and no user tokens", () => {
  const conversation = played([report(1, { tokens: { model: { input: 1, output: 1 } } })], {
    outcome: "passed",
    checks: [],
  });
  assert.equal(conversation.simulation, undefined);
  assert.equal(conversation.tokens.user, undefined);
  assert.equal(conversation.turns.length, 1);
});
