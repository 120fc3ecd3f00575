import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { Ajv2020, type ErrorObject } from "ajv/dist/2020.js";
import moment from "moment";
import { FlowcheckError } from "../errors.ts";
import type { FlowDefinition } from "../engine/flow.ts";
import { closestName } from "./closest-name.ts";
import { compilePattern, isSuccessStatus, type LoadedScenario, type Scenario } from "./scenario.ts";
import { caseProblems } from "./scenario-cases.ts";
import { stepReferences } from "./step-references.ts";
import scenarioSchema from "../../scenarios/scenario.schema.json" with { type: "json" };

const ajv = new Ajv2020({ allErrors: true, strict: true, verbose: true });
const validateScenario = ajv.compile<Scenario>(scenarioSchema);

const PATTERN_HINTS: Record<string, string> = {
  "^[A-Z][A-Za-z0-9]*$": "a PascalCase step name such as NameStep",
  "^[A-Z][A-Z0-9_]*$": "an UPPER_SNAKE_CASE variable name",
  "^[a-z0-9][a-z0-9-]*$": "lower-case letters, digits and dashes",
  "^[\\w.+-]+/[\\w.+-]+$": "a media type such as text/event-stream",
};

/** `/turns/2/expectState` → `turns[2].expectState`. */
function jsonPath(pointer: string, extra?: string): string {
  const parts = pointer.split("/").slice(1).map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"));
  if (extra !== undefined) parts.push(extra);
  return parts.reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), "") || "(the file)";
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

function kindOf(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value === "object" ? "an object" : `a ${typeof value}`;
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
      return `${at}: ${show(value)} is not one of ${(error.params["allowedValues"] as unknown[]).map(show).join(", ")}.`;
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

function schemaProblems(data: unknown): string[] {
  if (validateScenario(data)) return [];
  const errors = validateScenario.errors ?? [];
  const oneOfPaths = new Set(errors.filter((e) => e.keyword === "oneOf").map((e) => e.instancePath));
  return errors
    .filter((e) => e.keyword !== "propertyNames")
    .filter((e) => e.keyword === "oneOf" || !oneOfPaths.has(e.instancePath))
    .map((e) => describeSchemaError(e, data));
}

function unknownStep(flow: FlowDefinition, step: string): string | undefined {
  if (flow.step(step)) return undefined;
  const guess = closestName(step, flow.stepNames);
  return `"${step}" is not a step of ${flow.name}${guess ? `; did you mean ${guess}?` : "."} Its steps are ${flow.stepNames.join(", ")}.`;
}

/**
 * What the schema cannot say: unique labels, a registered flow, existing steps, regexes that compile.
 * `typoTurns` are turns with an unknown key, whose missing keys are likely the typo's own.
 */
function meaningProblems(scenario: Scenario, flows: readonly FlowDefinition[], typoTurns: ReadonlySet<number>): string[] {
  const problems: string[] = [];
  const flow = flows.find((candidate) => candidate.name === scenario.flowName);
  if (!flow) {
    const names = flows.map((candidate) => candidate.name);
    const guess = closestName(scenario.flowName, names);
    problems.push(`flowName: "${scenario.flowName}" is not a registered flow${guess ? `; did you mean ${guess}?` : "."} The flows are ${names.join(", ")}.`);
  }
  const references = stepReferences(scenario);
  const checkSteps = (turn: number | undefined) => {
    for (const reference of references) {
      const problem = reference.turn === turn && flow && unknownStep(flow, reference.step);
      if (problem) problems.push(`${reference.path}: ${problem}`);
    }
  };
  const labels = new Map<string, number>();
  scenario.turns.forEach((turn, index) => {
    const at = (path: string) => `turns[${index}].${path} (turn "${turn.label}")`;
    const first = labels.get(turn.label);
    if (first !== undefined) problems.push(`${at("label")}: "${turn.label}" is also the label of turns[${first}]; labels name the tests, so each must be unique.`);
    else labels.set(turn.label, index);
    const answered = isSuccessStatus(turn.expectedStatus ?? 200);
    if (answered && turn.expectedActiveStep === undefined && !typoTurns.has(index)) {
      problems.push(`${at("expectedActiveStep")}: missing; every answered turn must say which step the session is on after it.`);
    }
    if (!answered && (turn.expectedActiveStep !== undefined || turn.completed !== undefined || turn.expectState !== undefined)) {
      problems.push(`${at("expectedStatus")}: ${turn.expectedStatus} is an error status, so the turn changes nothing; drop expectedActiveStep, completed and expectState from it.`);
    }
    checkSteps(index);
    const patterns = turn.responseMatches === undefined ? [] : [turn.responseMatches].flat();
    patterns.forEach((pattern, i) => {
      try {
        compilePattern(pattern);
      } catch (error) {
        const path = at(Array.isArray(turn.responseMatches) ? `responseMatches[${i}]` : "responseMatches");
        problems.push(`${path}: ${show(pattern)} is not a valid regular expression (${(error as Error).message}).`);
      }
    });
    if (turn.expectCsvRows !== undefined && !/\btext\/csv\b/i.test(turn.accept ?? "")) {
      problems.push(`${at("expectCsvRows")}: needs "accept": "text/csv", or the answer is JSON and has no rows.`);
    }
    if (turn.clockAt !== undefined && !moment.utc(turn.clockAt, moment.ISO_8601, true).isValid()) {
      problems.push(`${at("clockAt")}: ${show(turn.clockAt)} is not an ISO 8601 instant; use a value such as 2027-07-16T09:00:00.000Z.`);
    }
    if (turn.minScore !== undefined && turn.expectedResponse === undefined) {
      problems.push(`${at("minScore")}: has no effect without expectedResponse; add the expectation the judge grades, or drop minScore.`);
    }
  });
  checkSteps(undefined);
  return problems;
}

function positionOf(text: string, message: string): string {
  const offset = /position (\d+)/.exec(message);
  if (!offset) return "";
  const before = text.slice(0, Number(offset[1]));
  const line = before.split("\n").length;
  return ` at line ${line}, column ${before.length - before.lastIndexOf("\n")}`;
}

export function scenarioNameOf(file: string): string {
  return basename(file).replace(/\.scenario\.json$|\.json$/, "");
}

/**
 * Reads and checks a scenario file before any turn runs. Every problem is reported at once in a
 * `scenario_invalid` error naming the file, each with its JSON path, the turn's label, the value
 * found and what is allowed.
 */
export function loadScenario(file: string, flows: readonly FlowDefinition[]): LoadedScenario {
  const fail = (problems: string[]): never => {
    throw new FlowcheckError(
      "scenario_invalid",
      `${file} is not a valid scenario (${problems.length} problem${problems.length === 1 ? "" : "s"}); no turn was run:\n- ${problems.join("\n- ")}`,
      { details: problems },
    );
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
    // V8 gives the offset ("at position 30") and Node 22 and later add "(line 3 column 3)": the
    // line and column come from the offset instead, so every Node version says them once, alike.
    const message = (error as Error).message.replace(/\s*\n\s*/g, " ").replace(/ \(line \d+ column \d+\)$/, "");
    return fail([`the file is not valid JSON${positionOf(text, message)}: ${message}`]);
  }
  const problems = schemaProblems(data);
  // Unknown keys aside, the shape is sound, so the flow checks can run too and every problem is
  // reported in one pass; any other schema problem could make them misread the file.
  const onlyUnknownKeys = (validateScenario.errors ?? []).every((error) => error.keyword === "additionalProperties");
  if (problems.length && !onlyUnknownKeys) return fail(problems);
  const typoTurns = new Set(
    (validateScenario.errors ?? []).flatMap((error) => {
      const turn = /^\/turns\/(\d+)$/.exec(error.instancePath);
      return turn ? [Number(turn[1])] : [];
    }),
  );
  problems.push(...meaningProblems(data as Scenario, flows, typoTurns), ...caseProblems(data as Scenario));
  if (problems.length) return fail(problems);
  const scenario = data as Scenario;
  return { file, name: scenarioNameOf(file), scenario };
}
