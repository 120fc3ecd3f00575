import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { FlowcheckError } from "../../errors.ts";
import type { ConversationResult, RunResults } from "../report/run-results.ts";
import { SCENARIO_SUFFIX } from "../scenario/scenario-discovery.ts";
import type { Scenario } from "../scenario/scenario.ts";
import { conversationOf, scenarioFromResults } from "./scenario-from-results.ts";
import { schemaPathFrom } from "./write-captured-scenario.ts";

export interface FromResultsOptions {
  /** A conversation's id in the results (or its name, when it ran once). */
  id: string;
  results: RunResults;
  /** Where the results were read from, for messages and the scenario's description. */
  resultsFile: string;
  /** Where to write; default beside the conversation's scenario file, `defaultOutOf`. */
  out?: string;
  force: boolean;
}

/**
 * `scenarios/wick.scenario.json`, run once → `scenarios/wick.from-run.scenario.json`; its second
 * repeat → `wick.from-run-2.scenario.json`; a case keeps its slug (`wick.case-1.from-run…`).
 * Beside the original, so the suite that ran it picks the fixed one up with no edit.
 */
export function defaultOutOf(conversation: ConversationResult): string {
  const name = basename(conversation.name);
  const repeat = conversation.repeat.of > 1 ? `-${conversation.repeat.index}` : "";
  return join(dirname(conversation.file), `${name}.from-run${repeat}${SCENARIO_SUFFIX}`);
}

/** The scenario file the conversation ran, when it can still be read; the results alone give its turns. */
function originalOf(file: string): Scenario | undefined {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Scenario;
  } catch {
    return undefined;
  }
}

/** Writes the conversation `id` of a run's results as a fixed scenario; nothing is written when it cannot be. */
export function writeScenarioFromResults(options: FromResultsOptions): { file: string; scenario: Scenario } {
  const { results } = options;
  const conversation = conversationOf(results, options.id, options.resultsFile);
  const file = options.out ?? defaultOutOf(conversation);
  if (existsSync(file) && !options.force) {
    throw new FlowcheckError(
      "scenario_exists",
      `${file} already exists; pass --out <file> to write another, or --force to overwrite it.`,
    );
  }
  const scenario = scenarioFromResults(conversation, originalOf(conversation.file), {
    file: options.resultsFile,
    startedAt: results.startedAt,
    ...(results.commit ? { commit: results.commit } : {}),
    schema: schemaPathFrom(dirname(file)),
  });
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(scenario, null, 2)}\n`);
  return { file, scenario };
}
