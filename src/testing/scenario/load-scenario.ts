import { readFileSync } from "node:fs";
import { basename, isAbsolute, relative, resolve, sep } from "node:path";
import type { FlowDefinition } from "../../engine/flow.ts";
import { describeJsonError } from "./describe-json-error.ts";
import { invalidScenario } from "./invalid-scenario.ts";
import { jsonLines } from "./json-lines.ts";
import { meaningProblems, type FlowOutline } from "./meaning-problems.ts";
import type { LoadedScenario, Scenario } from "./scenario.ts";
import { caseProblems } from "./scenario-cases.ts";
import { schemaProblems, soundPart } from "./schema-problems.ts";

/**
 * What a scenario file is called in suite names, transcripts and check keys: its path under
 * `root` (default `scenarios`) without `.scenario.json`, e.g. `team/ada-lovelace`; a file
 * elsewhere by its own name.
 */
export function scenarioNameOf(file: string, root = "scenarios"): string {
  const under = relative(resolve(root), resolve(file));
  const name = under.startsWith("..") || isAbsolute(under) ? basename(file) : under.split(sep).join("/");
  return name.replace(/\.scenario\.json$|\.json$/, "");
}

/** The keys checked at the end, whose first line a failed final state names. */
const FINAL_KEYS = [
  "finalState",
  "finalExecution",
  "finalChildren",
  "finalMemory",
  "success",
  "maxTokens",
  "maxCostUsd",
];

/** Each turn's line (its label's, else its own) and the final expectations' (the first of them, else the file's end). */
function linesOf(text: string, scenario: Scenario): NonNullable<LoadedScenario["lines"]> {
  const lines = jsonLines(text);
  const turns = scenario.turns.map((_, index) => lines.get(`/turns/${index}/label`) ?? lines.get(`/turns/${index}`)!);
  const finals = FINAL_KEYS.flatMap((key) => lines.get(`/${key}`) ?? []);
  return { turns, final: finals.length ? Math.min(...finals) : text.split("\n").length };
}

/**
 * Reads and checks a scenario file before any turn runs. Every problem is reported at once in a
 * `scenario_invalid` error naming the file, each with its JSON path, the turn's label, the value
 * found and what is allowed. A flow served by a target of another kind is checked against its
 * `outline` (the steps that target lists, and its kind: only a LangGraph target takes a turn input
 * that is not text) rather than a flow definition.
 */
export function loadScenario(
  file: string,
  flows: readonly FlowDefinition[],
  options: { root?: string; outline?: FlowOutline } = {},
): LoadedScenario {
  const fail = (problems: string[]): never => {
    throw invalidScenario(file, problems);
  };
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    return fail([`the file cannot be read: ${(error as Error).message}`]);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return fail([`the file is not valid JSON${describeJsonError((error as Error).message)}`]);
  }
  const { problems, errors } = schemaProblems(data);
  if (data === null || typeof data !== "object" || Array.isArray(data)) return fail(problems);
  const { scenario: sound, touchedTurns } = soundPart(data, errors);
  problems.push(...meaningProblems(sound, flows, touchedTurns, options.outline), ...caseProblems(sound));
  if (problems.length) return fail(problems);
  // Opening turns are optional beside a simulated user: the rest of flowcheck reads a list either way.
  const scenario = { ...data, turns: (data as Partial<Scenario>).turns ?? [] } as Scenario;
  return { file, name: scenarioNameOf(file, options.root), scenario, lines: linesOf(text, scenario) };
}
