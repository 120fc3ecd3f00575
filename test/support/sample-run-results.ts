import { totalsOf } from "../../src/testing/report/merge-run-results.ts";
import type { ConversationResult, RunResults, TurnResult } from "../../src/testing/report/run-results.ts";

/** A turn as a run's results hold it: passed, with one passed check, unless `fields` say otherwise. */
export function sampleTurn(number: number, fields: Partial<TurnResult> = {}): TurnResult {
  return {
    number,
    label: `turn ${number}`,
    input: `input ${number}`,
    answer: { text: `answer ${number}`, contentType: "application/json" },
    outcome: "passed",
    checks: [{ contract: "transport", name: "status", outcome: "passed" }],
    response: { status: 200, headers: {}, body: { response: `answer ${number}` } },
    stored: { step: "NameStep", runStatus: "running", turns: number },
    ...fields,
  };
}

/** A conversation of `turns`, its outcome the worst of theirs. */
export function sampleConversation(
  name: string,
  turns: TurnResult[],
  fields: Partial<ConversationResult> = {},
): ConversationResult {
  const outcome = turns.some((turn) => turn.outcome === "failed")
    ? "failed"
    : turns.every((turn) => turn.outcome === "skipped")
      ? "skipped"
      : "passed";
  return {
    id: `journeys/${name}.scenario.json#${name}`,
    file: `journeys/${name}.scenario.json`,
    name,
    flowName: "BasicFlow",
    repeat: { index: 1, of: 1 },
    outcome,
    ran: true,
    pins: {},
    models: { BasicFlow: "scripted" },
    tokens: { model: { input: 0, output: 0 }, judge: { input: 0, output: 0 } },
    turns,
    ...fields,
  };
}

/** A run's results of `conversations`, totals counted from them. */
export function sampleRunResults(conversations: ConversationResult[], fields: Partial<RunResults> = {}): RunResults {
  return {
    results: 1,
    startedAt: "2026-12-01T10:00:00.000Z",
    endedAt: "2026-12-01T10:00:04.000Z",
    pins: {},
    models: { BasicFlow: "scripted" },
    totals: totalsOf(conversations),
    conversations,
    specsNotLoaded: [],
    ...fields,
  };
}

/** Repeat `index` of `of` of a simulated scenario `name`: two user turns, `outcome` as given, its user and end reason filled in. */
export function sampleSimulated(
  name: string,
  repeat: ConversationResult["repeat"],
  outcome: "passed" | "failed",
  fields: Partial<ConversationResult> = {},
): ConversationResult {
  const turns = [1, 2].map((number) =>
    sampleTurn(number, { label: `user ${number}`, simulated: { turn: number, reason: `asks step ${number}` } }),
  );
  return sampleConversation(name, turns, {
    id: `journeys/${name}.scenario.json#${name}@${repeat.index}`,
    repeat,
    outcome,
    tokens: { model: { input: 10, output: 5 }, judge: { input: 0, output: 0 }, user: { input: 7, output: 3 } },
    simulation: {
      persona: "Ada, a busy nurse",
      goal: "book a visit for Friday",
      style: "terse",
      player: "scripted",
      userTurns: 2,
      end:
        outcome === "passed"
          ? { reason: "user-done", detail: "booked for Friday" }
          : { reason: "max-turns", detail: "the user wrote 2 messages, its maxTurns" },
    },
    ...fields,
  });
}
