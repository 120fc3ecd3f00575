import { readFileSync } from "node:fs";
import { basename, isAbsolute, relative, resolve, sep } from "node:path";
import { Ajv2020, type ErrorObject } from "ajv/dist/2020.js";
import moment from "moment";
import { FlowcheckError } from "../errors.ts";
import type { FlowDefinition } from "../engine/flow.ts";
import { closestName } from "./closest-name.ts";
import { jsonLines } from "./json-lines.ts";
import { compilePattern, isSuccessStatus, type LoadedScenario, type Scenario } from "./scenario.ts";
import { caseProblems } from "./scenario-cases.ts";
import { stepReferences } from "./step-references.ts";
import scenarioSchema from "../../scenarios/scenario.schema.json" with { type: "json" };

// The schema is ours, and test/testing/load-scenario.spec.ts checks it against ajv's meta-schema:
// checking it again at every start cost each test process about 0.1 s.
const ajv = new Ajv2020({ allErrors: true, strict: true, verbose: true, validateSchema: false });
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

/** The schema's problems, described, and ajv's errors behind them. */
function schemaProblems(data: unknown): { problems: string[]; errors: ErrorObject[] } {
  if (validateScenario(data)) return { problems: [], errors: [] };
  const errors = validateScenario.errors ?? [];
  const oneOfPaths = new Set(errors.filter((e) => e.keyword === "oneOf").map((e) => e.instancePath));
  const problems = errors
    .filter((e) => e.keyword !== "propertyNames")
    .filter((e) => e.keyword === "oneOf" || !oneOfPaths.has(e.instancePath))
    .map((e) => describeSchemaError(e, data));
  return { problems, errors };
}

/** `/turns/2/expectState` → `["turns", "2", "expectState"]`. */
function pointerParts(pointer: string): string[] {
  return pointer.split("/").slice(1).map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/**
 * The file without the values the schema refused, so that the meaning checks can run on the rest
 * and every problem is reported in one pass; with the turns that had any schema problem, whose
 * other keys may be the mistake's own (a typo'd key leaves a required one missing).
 */
function soundPart(data: object, errors: readonly ErrorObject[]): { scenario: Scenario; touchedTurns: Set<number> } {
  const copy = structuredClone(data) as Record<string, unknown>;
  const touchedTurns = new Set<number>();
  for (const error of errors) {
    const turn = /^\/turns\/(\d+)/.exec(error.instancePath);
    if (turn) touchedTurns.add(Number(turn[1]));
    if (["required", "additionalProperties", "propertyNames"].includes(error.keyword)) continue;
    const propertyName = (error as ErrorObject & { propertyName?: string }).propertyName;
    const parts = pointerParts(error.instancePath);
    if (propertyName !== undefined) parts.push(propertyName);
    const last = parts.pop();
    if (last === undefined) continue;
    const parent = parts.reduce<unknown>((value, part) => (value !== null && typeof value === "object" ? (value as Record<string, unknown>)[part] : undefined), copy);
    // An array keeps its indexes, with a hole where the refused item was, so paths still match the file.
    if (parent !== null && typeof parent === "object") delete (parent as Record<string, unknown>)[last];
  }
  return { scenario: copy as unknown as Scenario, touchedTurns };
}

function unknownStep(flow: FlowDefinition, step: string): string | undefined {
  if (flow.step(step)) return undefined;
  const guess = closestName(step, flow.stepNames);
  return `"${step}" is not a step of ${flow.name}${guess ? `; did you mean ${guess}?` : "."} Its steps are ${flow.stepNames.join(", ")}.`;
}

/**
 * What the schema cannot say: unique labels, a registered flow, existing steps, regexes that compile.
 * It reads what the schema let through: `touchedTurns` had a schema problem, so a key missing from
 * them is likely the mistake's own and is not reported again.
 */
function meaningProblems(scenario: Scenario, flows: readonly FlowDefinition[], touchedTurns: ReadonlySet<number>): string[] {
  const problems: string[] = [];
  const flow = flows.find((candidate) => candidate.name === scenario.flowName);
  if (!flow && scenario.flowName !== undefined) {
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
  (scenario.turns ?? []).forEach((turn, index) => {
    const at = (path: string) => (turn.label === undefined ? `turns[${index}].${path}` : `turns[${index}].${path} (turn "${turn.label}")`);
    const first = turn.label === undefined ? undefined : labels.get(turn.label);
    if (first !== undefined) problems.push(`${at("label")}: "${turn.label}" is also the label of turns[${first}]; labels name the tests, so each must be unique.`);
    else if (turn.label !== undefined) labels.set(turn.label, index);
    const answered = isSuccessStatus(turn.expectedStatus ?? 200);
    if (answered && turn.expectedActiveStep === undefined && !touchedTurns.has(index)) {
      problems.push(`${at("expectedActiveStep")}: missing; every answered turn must say which step the session is on after it.`);
    }
    if (!answered && !touchedTurns.has(index) && (turn.expectedActiveStep !== undefined || turn.completed !== undefined || turn.expectState !== undefined)) {
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

/**
 * Where JSON.parse stopped, in our words, and its reason without the position it gives: V8 names
 * an offset, and from Node 22 on also a line and column, so its text differs between runtimes.
 */
function describeJsonError(text: string, message: string): string {
  const reason = message.replace(/\s*\n\s*/g, " ");
  const offset = /\s*in JSON at position (\d+)(?:\s*\(line \d+ column \d+\))?/.exec(reason);
  if (!offset) return `: ${reason}`;
  const before = text.slice(0, Number(offset[1]));
  const line = before.split("\n").length;
  return ` at line ${line}, column ${before.length - before.lastIndexOf("\n")}: ${reason.replace(offset[0], "")}`;
}

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

/** Each turn's line (its label's, else its own) and the final expectations' (the first of them, else the file's end). */
function linesOf(text: string, scenario: Scenario): NonNullable<LoadedScenario["lines"]> {
  const lines = jsonLines(text);
  const turns = scenario.turns.map((_, index) => lines.get(`/turns/${index}/label`) ?? lines.get(`/turns/${index}`)!);
  const finals = ["finalState", "finalExecution", "finalChildren", "finalMemory"].flatMap((key) => lines.get(`/${key}`) ?? []);
  return { turns, final: finals.length ? Math.min(...finals) : text.split("\n").length };
}

/**
 * Reads and checks a scenario file before any turn runs. Every problem is reported at once in a
 * `scenario_invalid` error naming the file, each with its JSON path, the turn's label, the value
 * found and what is allowed.
 */
export function loadScenario(file: string, flows: readonly FlowDefinition[], options: { root?: string } = {}): LoadedScenario {
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
    return fail([`the file is not valid JSON${describeJsonError(text, (error as Error).message)}`]);
  }
  const { problems, errors } = schemaProblems(data);
  if (data === null || typeof data !== "object" || Array.isArray(data)) return fail(problems);
  const { scenario: sound, touchedTurns } = soundPart(data, errors);
  problems.push(...meaningProblems(sound, flows, touchedTurns), ...caseProblems(sound));
  if (problems.length) return fail(problems);
  const scenario = data as Scenario;
  return { file, name: scenarioNameOf(file, options.root), scenario, lines: linesOf(text, scenario) };
}
