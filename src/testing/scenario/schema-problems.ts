import type { ErrorObject } from "ajv";
import { compileSchema } from "../../engine/schema-validator.ts";
import { describeSchemaError, kindOf } from "./describe-schema-error.ts";
import { jsonPath, pointerParts } from "./json-path.ts";
import type { Scenario } from "./scenario.ts";
import { show } from "./show.ts";
import scenarioSchema from "../../../scenarios/scenario.schema.json" with { type: "json" };

const validateScenario = compileSchema<Scenario>(scenarioSchema, "2020-12");

/** Where in the file, with the turn's label when the path is inside a turn. */
function where(data: unknown, path: string, pointer: string): string {
  const turn = /^\/turns\/(\d+)/.exec(pointer);
  const label = turn ? (data as { turns?: { label?: unknown }[] }).turns?.[Number(turn[1])]?.label : undefined;
  return typeof label === "string" ? `${path} (turn "${label}")` : path;
}

// What each oneOf of the schema allows, by the key it is on: ajv's own errors name only its branches.
const ONE_OF_EXPECTED: Record<string, string> = {
  input:
    "a non-empty message, or (for a LangGraph target) a JSON value other than a string to resume an interrupt with",
  responseMatches: "a pattern string or a list of pattern strings",
};

// Why a key needs the other: a simulated conversation is graded by its success, and only it is.
const DEPENDENT_WHY: Record<string, string> = {
  user: "a simulated conversation must say what success is: add `success` with at least one of completed, finalState, responseMustInclude, responseMustNotInclude, judge",
  success:
    "success is what a simulated user's conversation must reach: add `user`, or check the turns and the final expectations instead",
};

// Without `user`, the schema's else asks for turns: said with the other way to write a conversation.
const WITHOUT_USER: Record<string, string> = {
  required:
    "(the file): the required key `turns` is missing; give the conversation's turns, or a simulated `user` and its `success`.",
  minItems:
    "turns: is empty; give the conversation at least one turn, or a simulated `user` and its `success` to play it.",
};

function describeError(error: ErrorObject, data: unknown): string {
  const at = (path: string, pointer: string) => where(data, path, pointer);
  if (error.schemaPath.startsWith("#/else/") && WITHOUT_USER[error.keyword]) return WITHOUT_USER[error.keyword]!;
  if (error.keyword === "dependentRequired")
    return `${describeSchemaError(error, at).slice(0, -1)}: ${DEPENDENT_WHY[String(error.params["property"])]}.`;
  if (error.keyword !== "oneOf") return describeSchemaError(error, at);
  const value = error.data;
  const expected =
    ONE_OF_EXPECTED[pointerParts(error.instancePath).at(-1) ?? ""] ?? "one of the forms the schema allows";
  const found = value === "" ? "an empty string" : kindOf(value);
  return `${at(jsonPath(error.instancePath), error.instancePath)}: ${show(value)} is ${found}; expected ${expected}.`;
}

/**
 * The schema's refusal of a run setting in `env`: the schema marks those names for editors, and
 * the meaning checks report them, knowing the flow and what its env may take instead.
 */
function isEnvReservation(error: ErrorObject): boolean {
  return error.schemaPath.startsWith("#/properties/env/propertyNames/anyOf");
}

/** The schema's problems, described, and ajv's errors behind them. */
export function schemaProblems(data: unknown): { problems: string[]; errors: ErrorObject[] } {
  if (validateScenario(data)) return { problems: [], errors: [] };
  const errors = validateScenario.errors ?? [];
  const oneOfPaths = new Set(errors.filter((e) => e.keyword === "oneOf").map((e) => e.instancePath));
  // An anyOf is described as a whole, not by each branch it tried; an if by its branch's own errors.
  const anyOfs = errors.filter((e) => e.keyword === "anyOf").map((e) => `${e.schemaPath}/`);
  const problems = errors
    .filter((e) => !["propertyNames", "if"].includes(e.keyword) && !isEnvReservation(e))
    .filter((e) => e.keyword === "oneOf" || !oneOfPaths.has(e.instancePath))
    .filter((e) => !anyOfs.some((anyOf) => e.schemaPath.startsWith(anyOf)))
    .map((e) => describeError(e, data));
  // Without `user`, turns is checked twice, as every scenario's and as the one without a simulated user.
  return { problems: [...new Set(problems)], errors };
}

/**
 * The file without the values the schema refused, so that the meaning checks can run on the rest
 * and every problem is reported in one pass; with the turns that had any schema problem, whose
 * other keys may be the mistake's own (a typo'd key leaves a required one missing).
 */
export function soundPart(
  data: object,
  errors: readonly ErrorObject[],
): { scenario: Scenario; touchedTurns: Set<number> } {
  const copy = structuredClone(data) as Record<string, unknown>;
  const touchedTurns = new Set<number>();
  for (const error of errors) {
    const turn = /^\/turns\/(\d+)/.exec(error.instancePath);
    if (turn) touchedTurns.add(Number(turn[1]));
    if (["required", "additionalProperties", "propertyNames"].includes(error.keyword) || isEnvReservation(error))
      continue;
    const propertyName = (error as ErrorObject & { propertyName?: string }).propertyName;
    const parts = pointerParts(error.instancePath);
    if (propertyName !== undefined) parts.push(propertyName);
    const last = parts.pop();
    if (last === undefined) continue;
    const parent = parts.reduce<unknown>(
      (value, part) =>
        value !== null && typeof value === "object" ? (value as Record<string, unknown>)[part] : undefined,
      copy,
    );
    // An array keeps its indexes, with a hole where the refused item was, so paths still match the file.
    if (parent !== null && typeof parent === "object") delete (parent as Record<string, unknown>)[last];
  }
  return { scenario: copy as unknown as Scenario, touchedTurns };
}
