import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { isFlowcheckError } from "../../../src/errors.ts";
import { conversationOf, scenarioFromResults } from "../../../src/testing/capture/scenario-from-results.ts";
import type { ConversationResult, TurnResult } from "../../../src/testing/report/run-results.ts";
import { loadScenario } from "../../../src/testing/scenario/load-scenario.ts";
import type { Scenario } from "../../../src/testing/scenario/scenario.ts";
import { basicFlowEntry } from "../../fixtures/flows/index.ts";
import { sampleConversation, sampleRunResults, sampleTurn } from "../../support/sample-run-results.ts";
import { tempDir } from "../../support/temp-path.ts";

const SOURCE = { file: "test/.tmp/run-results.json", startedAt: "2027-01-05T10:00:00.000Z", schema: "./x.json" };

/** A passed turn that said `answer` and left `stored`; none for a turn with an error status. */
function turn(
  number: number,
  input: string,
  answer: string,
  stored: TurnResult["stored"],
  more: Partial<TurnResult> = {},
): TurnResult {
  const { stored: _default, ...passed } = sampleTurn(number, {
    label: `user: ${input}`,
    input,
    answer: { text: answer },
  });
  return { ...passed, ...(stored ? { stored } : {}), ...more };
}

const running = (step: string) => ({ step, runStatus: "running" as const, turns: 1 });

function conversation(more: Partial<ConversationResult> = {}): ConversationResult {
  const turns = [
    { ...turn(1, "John Wick", "Nice to meet you, John Wick.", running("WeatherStep")), label: "opening" },
    turn(2, "LA, NYC", "Today: LA 72°F, NYC 64°F.", running("AddressStep"), { simulated: { turn: 1 } }),
    turn(
      3,
      "1600 sw murray blvd, beaverton, oregon 97006 and a long tail of words",
      "Your address is saved. Today is fine.",
      { step: "AddressStep", runStatus: "completed", turns: 3 },
      { simulated: { turn: 2 } },
    ),
    turn(4, "LA, NYC", "This conversation has ended.", undefined, {
      simulated: { turn: 3 },
      response: { status: 409, headers: {}, body: {} },
    }),
  ];
  return sampleConversation("wick", turns, {
    id: "journeys/wick.scenario.json#wick@2",
    repeat: { index: 2, of: 3 },
    ...more,
  });
}

const original: Scenario = {
  flowName: "BasicFlow",
  env: { BASIC_FLOW_CURRENT_DATE: "2027-01-05T09:00:00.000Z" },
  judgeMinScore: 0.8,
  turns: [{ label: "opening", input: "John Wick", expectedActiveStep: "WeatherStep" }],
  user: { persona: "John Wick", goal: "Save his address" },
  success: {
    completed: true,
    finalState: { NameStep: { name: "John Wick" } },
    responseMustInclude: ["TODAY", "saved", "never said"],
    responseMustNotInclude: ["placeholder"],
    judge: "The assistant was polite.",
  },
};

test("a played conversation becomes fixed turns: its inputs, the steps, run statuses and statuses it left, success's phrases where they were said", () => {
  const scenario = scenarioFromResults(conversation(), original, { ...SOURCE, commit: "0123456789abcdef0123" });
  assert.deepEqual(scenario.turns, [
    {
      label: "opening",
      input: "John Wick",
      expectedActiveStep: "WeatherStep",
      completed: false,
      responseMustNotInclude: ["placeholder"],
    },
    {
      label: "user 1: LA, NYC",
      input: "LA, NYC",
      expectedActiveStep: "AddressStep",
      completed: false,
      responseMustInclude: ["TODAY"],
      responseMustNotInclude: ["placeholder"],
    },
    {
      label: "user 2: 1600 sw murray blvd, beaverton, oregon 97006 and a…",
      input: "1600 sw murray blvd, beaverton, oregon 97006 and a long tail of words",
      expectedActiveStep: "AddressStep",
      completed: true,
      responseMustInclude: ["saved"],
      responseMustNotInclude: ["placeholder"],
    },
    { label: "user 3: LA, NYC", input: "LA, NYC", expectedStatus: 409, responseMustNotInclude: ["placeholder"] },
  ]);
  assert.deepEqual(scenario.finalState, { NameStep: { name: "John Wick" } });
  assert.deepEqual(scenario.env, original.env);
  assert.equal(scenario.judgeMinScore, 0.8);
  for (const key of ["user", "success", "cases"]) assert.equal(key in scenario, false, key);
  assert.match(scenario.description!, /journeys\/wick\.scenario\.json#wick@2/);
  assert.match(scenario.description!, /2027-01-05T10:00:00\.000Z at commit 0123456789ab/);
});

test("the written scenario passes the loader for its flow", async (t) => {
  const dir = await tempDir("from-results");
  t.after(dir.remove);
  const file = join(dir.path, "wick.from-run.scenario.json");
  const { $schema: _schema, ...scenario } = scenarioFromResults(conversation(), original, SOURCE);
  writeFileSync(file, JSON.stringify(scenario));
  const loaded = loadScenario(file, [basicFlowEntry.flow]);
  assert.equal(loaded.scenario.turns.length, 4);
});

test("two simulated messages alike get labels of their own", () => {
  const turns = conversation().turns;
  const again = { ...turns[1]!, number: 3, simulated: { turn: 1 } };
  const scenario = scenarioFromResults(conversation({ turns: [turns[0]!, turns[1]!, again] }), original, SOURCE);
  assert.deepEqual(
    scenario.turns.map((each) => each.label),
    ["opening", "user 1: LA, NYC", "user 1: LA, NYC (2)"],
  );
});

test("a case's conversation takes the case's values into its success", () => {
  const withCases: Scenario = {
    ...original,
    success: { finalState: { NameStep: { name: "{{name}}" } } },
    cases: [{ label: "wick", values: { name: "John Wick" } }],
  };
  const scenario = scenarioFromResults(conversation({ caseLabel: "wick" }), withCases, SOURCE);
  assert.deepEqual(scenario.finalState, { NameStep: { name: "John Wick" } });
  assert.equal("cases" in scenario, false);
});

test("without its scenario file, the results alone give the flow and the turns", () => {
  const scenario = scenarioFromResults(conversation(), undefined, SOURCE);
  assert.equal(scenario.flowName, "BasicFlow");
  assert.equal(scenario.turns.length, 4);
  assert.equal(scenario.finalState, undefined);
});

const refusal = (code: string, pattern: RegExp) => (error: unknown) =>
  isFlowcheckError(error) && error.code === code && pattern.test(error.message);

test("a conversation with a failed turn is refused, naming the turn and why its scenario would expect the failure", () => {
  const turns = conversation().turns;
  const failed = { ...turns[1]!, outcome: "failed" as const, failure: "expected active step AddressStep" };
  assert.throws(
    () => scenarioFromResults(conversation({ outcome: "failed", turns: [turns[0]!, failed] }), original, SOURCE),
    refusal("conversation_not_passed", /turn 2 'user: LA, NYC' failed: expected active step.*would expect the failure/),
  );
});

test("a conversation that failed its success, or never ran, is refused saying so", () => {
  assert.throws(
    () => scenarioFromResults(conversation({ outcome: "failed", reason: "success.completed" }), original, SOURCE),
    refusal("conversation_not_passed", /it failed: success\.completed/),
  );
  assert.throws(
    () =>
      scenarioFromResults(
        conversation({ ran: false, outcome: "skipped", reason: "the target did not start" }),
        original,
        SOURCE,
      ),
    refusal("conversation_not_passed", /did not run \(the target did not start\)/),
  );
  assert.throws(
    () => scenarioFromResults(conversation({ turns: [] }), original, SOURCE),
    refusal("conversation_not_passed", /played no turn/),
  );
});

const results = (conversations: ConversationResult[]) => sampleRunResults(conversations);

test("a conversation is found by its id, or by its name when it ran once", () => {
  const once = conversation({ id: "journeys/wick.scenario.json#wick", repeat: { index: 1, of: 1 } });
  assert.equal(conversationOf(results([once]), "wick", SOURCE.file), once);
  assert.equal(conversationOf(results([once]), once.id, SOURCE.file), once);
});

test("an id not in the file is refused with the closest, and a repeated name asks for one repeat's id", () => {
  const repeats = [1, 2].map((index) =>
    conversation({ id: `journeys/wick.scenario.json#wick@${index}`, repeat: { index, of: 2 } }),
  );
  assert.throws(
    () => conversationOf(results(repeats), "journeys/wick.scenario.json#wick@3", SOURCE.file),
    refusal(
      "conversation_not_found",
      /no conversation .*Did you mean "journeys\/wick\.scenario\.json#wick@\d"\?.*Its ids: /,
    ),
  );
  assert.throws(
    () => conversationOf(results(repeats), "wick", SOURCE.file),
    refusal("conversation_not_found", /2 conversations named "wick".*#wick@1, .*#wick@2/),
  );
  assert.throws(
    () => conversationOf(results([]), "wick", SOURCE.file),
    refusal("conversation_not_found", /run flowcheck test first/),
  );
});
