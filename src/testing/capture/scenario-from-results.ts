import { preview } from "../../engine/scripted-model.ts";
import { FlowcheckError } from "../../errors.ts";
import type { ConversationResult, RunResults, TurnResult } from "../report/run-results.ts";
import { closestName } from "../scenario/closest-name.ts";
import { isSuccessStatus } from "../scenario/is-success-status.ts";
import { expandCase } from "../scenario/scenario-cases.ts";
import type { Scenario, ScenarioTurn } from "../scenario/scenario.ts";
import { inputText } from "../scenario/turn-input.ts";

/** How many of a results file's ids an unknown id's error lists. */
const LISTED_IDS = 10;

/**
 * The conversation `id` names in `results`: its id, or its name when only one conversation has
 * it (a scenario run once); else a `conversation_not_found` error with the closest ids.
 */
export function conversationOf(results: RunResults, id: string, file: string): ConversationResult {
  const found = results.conversations.filter((conversation) => conversation.id === id || conversation.name === id);
  if (found.length === 1) return found[0]!;
  const ids = results.conversations.map((conversation) => conversation.id);
  const names = new Set(results.conversations.map((conversation) => conversation.name));
  if (found.length > 1) {
    throw new FlowcheckError(
      "conversation_not_found",
      `${file} holds ${found.length} conversations named "${id}", one per repeat: give one of their ids, ${found.map((conversation) => conversation.id).join(", ")}.`,
    );
  }
  const guess = closestName(id, [...ids, ...names]);
  const meant = guess ? ` Did you mean "${guess}"?` : "";
  const listed = ids.length > LISTED_IDS ? `${ids.slice(0, LISTED_IDS).join(", ")}, …` : ids.join(", ");
  throw new FlowcheckError(
    "conversation_not_found",
    `${file} holds no conversation "${id}".${meant} ` +
      (ids.length ? `Its ids: ${listed}.` : "It holds no conversation: run flowcheck test first."),
  );
}

/** Refuses a conversation whose turns a scenario cannot expect: one that never ran, or whose run failed. */
function checkPlayed(conversation: ConversationResult): void {
  if (!conversation.ran || conversation.outcome === "skipped") {
    throw new FlowcheckError(
      "conversation_not_passed",
      `${conversation.id} did not run (${conversation.reason ?? "no reason recorded"}), so it has no turns to write; run it, then try again.`,
    );
  }
  if (!conversation.turns.length) {
    throw new FlowcheckError(
      "conversation_not_passed",
      `${conversation.id} played no turn (${conversation.simulation?.end.detail ?? "it has none"}), so there is nothing to write.`,
    );
  }
  const failed = conversation.turns.find((turn) => turn.outcome !== "passed");
  const why = failed
    ? `its turn ${failed.number} '${failed.label}' ${failed.outcome === "failed" ? `failed: ${failed.failure ?? "no failure recorded"}` : `was not played: ${failed.skipReason ?? "no reason recorded"}`}`
    : conversation.outcome === "failed"
      ? `it failed: ${conversation.reason ?? "no failure recorded"}`
      : undefined;
  if (why) {
    throw new FlowcheckError(
      "conversation_not_passed",
      `${conversation.id} cannot be written as a scenario: ${why}. A scenario of it would expect the failure; ` +
        `write one from a conversation that passed (flowcheck test --repeat n plays more).`,
    );
  }
}

/** Opening turns keep their labels; a simulated user's message is labelled by its number and its first words. */
function labelOf(turn: TurnResult): string {
  return turn.simulated ? `user ${turn.simulated.turn}: ${preview(inputText(turn.input), 50)}` : turn.label;
}

/** A label not yet taken: two messages alike get ` (2)`, ` (3)`… */
function uniqueLabel(label: string, taken: Set<string>): string {
  let unique = label;
  for (let n = 2; taken.has(unique); n++) unique = `${label} (${n})`;
  taken.add(unique);
  return unique;
}

/** The turn as it was played: its input, and the status, step and run status it left. */
function turnOf(turn: TurnResult, label: string, must: string[], mustNot: string[] | undefined): ScenarioTurn {
  const status = turn.response?.status ?? 200;
  const stored = isSuccessStatus(status) ? turn.stored : undefined;
  return {
    label,
    input: turn.input,
    ...(status === 200 ? {} : { expectedStatus: status }),
    ...(stored ? { expectedActiveStep: stored.step, completed: stored.runStatus === "completed" } : {}),
    ...(must.length ? { responseMustInclude: must } : {}),
    ...(mustNot?.length ? { responseMustNotInclude: mustNot } : {}),
  };
}

export interface ResultsSource {
  /** The results file the conversation is read from, for the description. */
  file: string;
  /** When the run began: the results' `startedAt`. */
  startedAt: string;
  commit?: string;
  /** Where `scenario.schema.json` is from the folder the scenario is written to. */
  schema: string;
}

/**
 * The fixed scenario a run's conversation proves: each turn it played (opening and simulated) with
 * its input and the step, run status and HTTP status it left; `success`'s phrases on the turns
 * whose answers had them, and its `finalState` as the scenario's. The original scenario (`original`,
 * when its file can still be read) gives the flow, target, env and judge settings; `success.judge`
 * is not kept, as a fixed scenario's judge grades one answer, not the conversation.
 */
export function scenarioFromResults(
  conversation: ConversationResult,
  original: Scenario | undefined,
  source: ResultsSource,
): Scenario {
  checkPlayed(conversation);
  const flowName = original?.flowName ?? conversation.flowName;
  if (!flowName) {
    throw new FlowcheckError(
      "conversation_not_passed",
      `${conversation.id} names no flow, and its scenario file ${conversation.file} cannot be read; restore the file, then try again.`,
    );
  }
  const scenarioCase = original?.cases?.find((each) => each.label === conversation.caseLabel);
  const played = original && scenarioCase ? expandCase(original, scenarioCase) : original;
  const success = played?.success;
  // Each phrase on the first turn that said it: where a fixed scenario can expect it.
  const saidAt = (success?.responseMustInclude ?? []).map((phrase) => ({
    phrase,
    index: conversation.turns.findIndex((turn) => turn.answer?.text.toLowerCase().includes(phrase.toLowerCase())),
  }));
  const taken = new Set<string>();
  const turns = conversation.turns.map((turn, index) =>
    turnOf(
      turn,
      uniqueLabel(labelOf(turn), taken),
      saidAt.filter((said) => said.index === index).map((said) => said.phrase),
      success?.responseMustNotInclude,
    ),
  );
  const commit = source.commit ? ` at commit ${source.commit.slice(0, 12)}` : "";
  const judgeSettings = {
    ...(played?.judgeModel === undefined ? {} : { judgeModel: played.judgeModel }),
    ...(played?.judgeMinScore === undefined ? {} : { judgeMinScore: played.judgeMinScore }),
    ...(played?.judgeInstructions === undefined ? {} : { judgeInstructions: played.judgeInstructions }),
  };
  return {
    $schema: source.schema,
    flowName,
    ...(played?.target === undefined ? {} : { target: played.target }),
    description:
      `The conversation ${conversation.id} of the run that began ${source.startedAt}${commit} (${source.file}), ` +
      `its turns written as fixed ones by flowcheck from-results.`,
    ...(played?.tags?.length ? { tags: played.tags } : {}),
    ...(played?.env && Object.keys(played.env).length ? { env: played.env } : {}),
    ...judgeSettings,
    turns,
    ...(success?.finalState ? { finalState: success.finalState } : {}),
  };
}
