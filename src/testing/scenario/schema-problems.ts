import type { ErrorObject } from "ajv";
import { compileSchema } from "../../engine/schema-validator.ts";
import { closestName } from "./closest-name.ts";
import type { Scenario } from "./scenario.ts";
import { show } from "./show.ts";
import scenarioSchema from "../../../scenarios/scenario.schema.json" with { type: "json" };

const validateScenario = compileSchema<Scenario>(scenarioSchema, "2020-12");

const PATTERN_HINTS: Record<string, string> = {
  "^[A-Z][A-Za-z0-9]*$": "a PascalCase step name such as NameStep",
  "^[A-Z][A-Z0-9_]*$": "an UPPER_SNAKE_CASE variable name",
  "^[a-z0-9][a-z0-9-]*$": "lower-case letters, digits and dashes",
  "^[\\w.+-]+/[\\w.+-]+$": "a media type such as text/event-stream",
};

/** `/turns/2/expectState` → `turns[2].expectState`. */
function jsonPath(pointer: string, extra?: string): string {
  const parts = pointer
    .split("/")
    .slice(1)
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"));
  if (extra !== undefined) parts.push(extra);
  return (
    parts.reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), "") ||
    "(the file)"
  );
}

function kindOf(value: unknown): string {
  return value === null
    ? "null"
    : Array.isArray(value)
      ? "an array"
      : typeof value === "object"
        ? "an object"
        : `a ${typeof value}`;
}

/** Where in the file, with the turn's label when the path is inside a turn. */
function where(data: unknown, path: string, pointer: string): string {
  const turn = /^\/turns\/(\d+)/.exec(pointer);
  const label = turn ? (data as { turns?: { label?: unknown }[] }).turns?.[Number(turn[1])]?.label : undefined;
  return typeof label === "string" ? `${path} (turn "${label}")` : path;
}

function describeSchemaError(error: ErrorObject, data: unknown): string {
  const propertyName = (error as ErrorObject & { propertyName?: string }).propertyName;
  const path = jsonPath(error.instancePath, propertyName);
  const at = where(data, path, error.instancePath);
  const value = error.data;
  switch (error.keyword) {
    case "additionalProperties": {
      const key = String(error.params["additionalProperty"]);
      const known = Object.keys((error.parentSchema as { properties?: object }).properties ?? {});
      const guess = closestName(key, known);
      const keyAt = where(data, jsonPath(error.instancePath, key), error.instancePath);
      return guess
        ? `${keyAt}: \`${key}\` is not a known key; did you mean \`${guess}\`?`
        : `${keyAt}: \`${key}\` is not a known key; the keys allowed here are ${known.join(", ")}.`;
    }
    case "required":
      return `${at}: the required key \`${String(error.params["missingProperty"])}\` is missing.`;
    case "type":
      return `${at}: ${show(value)} is ${kindOf(value)}; expected ${String(error.params["type"])}.`;
    case "enum":
      return `${at}: ${show(value)} is not one of ${(error.params["allowedValues"] as unknown[]).map((value) => show(value)).join(", ")}.`;
    case "pattern": {
      const pattern = String(error.params["pattern"]);
      const shown = propertyName === undefined ? show(value) : `the key ${show(propertyName)}`;
      return `${at}: ${shown} is not ${PATTERN_HINTS[pattern] ?? `matching ${pattern}`}.`;
    }
    case "oneOf":
      return `${at}: ${show(value)} is ${kindOf(value)}; expected a pattern string or a list of pattern strings.`;
    default:
      return `${at}: ${show(value)} ${error.message ?? "is not valid"}.`;
  }
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
  const problems = errors
    .filter((e) => e.keyword !== "propertyNames" && !isEnvReservation(e))
    .filter((e) => e.keyword === "oneOf" || !oneOfPaths.has(e.instancePath))
    .map((e) => describeSchemaError(e, data));
  return { problems, errors };
}

/** `/turns/2/expectState` → `["turns", "2", "expectState"]`. */
function pointerParts(pointer: string): string[] {
  return pointer
    .split("/")
    .slice(1)
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"));
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
