import moment from "moment";
import type { FlowDefinition } from "../../engine/flow.ts";
import { closestName } from "./closest-name.ts";
import { compilePattern } from "./compile-pattern.ts";
import { isSuccessStatus } from "./is-success-status.ts";
import type { Scenario, ScenarioTurn } from "./scenario.ts";
import { scenarioEnvProblems } from "./scenario-env.ts";
import { show } from "./show.ts";
import { stepReferences } from "./step-references.ts";
import { notText, textOnlyReason } from "./turn-input.ts";

/**
 * The flow a scenario names as the loader checks it: a flow of our engine, or the outline a target
 * of another kind gives (its name and the steps it lists, undefined when it lists none).
 */
export interface FlowOutline {
  name: string;
  stepNames: readonly string[] | undefined;
  /** Where the outline comes from, for messages, e.g. `graph intake at http://127.0.0.1:2024`. */
  servedBy: string;
  /** The kind of target that serves it: only a LangGraph target takes a turn input that is not text. */
  kind: "flowcheck" | "langgraph" | "http" | "ai-sdk" | "mastra";
}

// A LangGraph run answers its thread's values as JSON whatever the request asks for: these keys
// would have no content type to ask for or check, and no CSV to read rows from.
const JSON_ANSWER_KEYS = ["accept", "expectContentType", "expectCsvRows"] as const;

/** The keys of a turn that a LangGraph target cannot honour, refused rather than passed with no check. */
function answerTypeProblems(turn: ScenarioTurn, index: number, outline: FlowOutline): string[] {
  if (outline.kind !== "langgraph") return [];
  return JSON_ANSWER_KEYS.filter((key) => turn[key] !== undefined).map(
    (key) =>
      `${turnPath(turn, index, key)}: ${outline.servedBy} answers each run's values as JSON whatever is asked, ` +
      "so there is no other content type to ask for or check and no CSV to read rows from; drop the key, " +
      "or play the scenario against a target that renders its answers (http or flowcheck).",
  );
}

/**
 * An expected call's `result`: our engine's outcome of a tool call (stay, advance, complete), which
 * a target of another kind does not have, so the call could never match.
 */
function resultProblems(turn: ScenarioTurn, index: number, outline: FlowOutline): string[] {
  if (outline.kind === "flowcheck") return [];
  return (turn.expectToolCalls ?? []).flatMap((call, at) =>
    call.result === undefined
      ? []
      : [
          `${turnPath(turn, index, `expectToolCalls[${at}].result`)}: ${show(call.result)} is our engine's outcome of a call, ` +
            `and ${outline.servedBy} is a ${outline.kind} target, whose calls have none; ` +
            "match what the tool returned with output instead, or drop result.",
        ],
  );
}

const PASCAL_CASE = /^[A-Z][A-Za-z0-9]*$/;

function unknownStep(flow: FlowDefinition | FlowOutline, step: string): string | undefined {
  const names = flow.stepNames ?? [];
  if (names.includes(step)) return undefined;
  const guess = closestName(step, names);
  const of = "servedBy" in flow ? flow.servedBy : flow.name;
  // The schema lets snake_case through for LangGraph's nodes; our engine's steps are PascalCase.
  const rule =
    "servedBy" in flow || PASCAL_CASE.test(step)
      ? ""
      : ` ${flow.name} is a flowcheck flow, whose step names are PascalCase.`;
  return `"${step}" is not a step of ${of}${guess ? `; did you mean ${guess}?` : "."} Its steps are ${names.join(", ")}.${rule}`;
}

/**
 * For our engine's flows, a state entry (expectState, finalState) is a step's state: an object.
 * A target of another kind keys its state otherwise, and its values may be anything.
 */
function stateShapeProblems(state: Record<string, unknown> | undefined, path: (step: string) => string): string[] {
  return Object.entries(state ?? {}).flatMap(([step, value]) =>
    value !== null && typeof value === "object" && !Array.isArray(value)
      ? []
      : [
          `${path(step)}: ${show(value)} is not an object; a flowcheck flow keeps each step's state as an object, matched partially.`,
        ],
  );
}

/** A turn input that is not text, where the flow's target takes only text: any but a LangGraph target. */
function inputProblems(turn: ScenarioTurn, index: number, flow: FlowDefinition | FlowOutline): string[] {
  if (turn.input === undefined || typeof turn.input === "string") return [];
  const why =
    "servedBy" in flow
      ? flow.kind === "langgraph"
        ? undefined
        : textOnlyReason(flow.kind, flow.servedBy)
      : textOnlyReason("flowcheck", flow.name);
  return why === undefined ? [] : [`${turnPath(turn, index, "input")}: ${notText(turn.input, why)}`];
}

/** `turns[2].clockAt (turn "later")`: where in the file, with the turn's label when it has one. */
function turnPath(turn: ScenarioTurn, index: number, path: string): string {
  return turn.label === undefined ? `turns[${index}].${path}` : `turns[${index}].${path} (turn "${turn.label}")`;
}

/**
 * An error turn's `expectToolCalls`: the engine's turn is not applied, so no call of it is stored
 * and the list could only fail, or pass on nothing, whatever the flow did. A 2xx turn under
 * failModelCall may still be answered, by a flow that recovers from the model's error.
 */
function errorToolCallsProblems(turn: ScenarioTurn, index: number, answered: boolean): string[] {
  if (answered || turn.expectToolCalls === undefined) return [];
  return [
    `${turnPath(turn, index, "expectToolCalls")}: the turn expects the error status ${turn.expectedStatus}, ` +
      "and a turn that errs stores no tool call (its engine turn is not applied), so there is nothing to match; " +
      "drop expectToolCalls from it, or expect the calls on a turn that is answered.",
  ];
}

/**
 * A turn's status against its expectations: an answered turn names its step (a turn of a Mastra
 * agent, `flow`, names none: an agent has none), an error turn expects no change and no tool call.
 * `touched` turns had a schema problem, whose missing keys may be its own.
 */
function statusProblems(turn: ScenarioTurn, index: number, touched: boolean, flow?: FlowOutline): string[] {
  const problems: string[] = [];
  const at = (path: string) => turnPath(turn, index, path);
  const answered = isSuccessStatus(turn.expectedStatus ?? 200);
  if (flow?.kind === "mastra") {
    if (turn.expectedActiveStep !== undefined)
      problems.push(
        `${at("expectedActiveStep")}: ${flow.servedBy} is a Mastra agent, which has no steps; drop the key ` +
          "(expectState matches the thread's working memory).",
      );
  } else if (answered && turn.expectedActiveStep === undefined && !touched) {
    problems.push(
      `${at("expectedActiveStep")}: missing; every answered turn must say which step the session is on after it.`,
    );
  }
  if (
    !answered &&
    !touched &&
    (turn.expectedActiveStep !== undefined || turn.completed !== undefined || turn.expectState !== undefined)
  ) {
    problems.push(
      `${at("expectedStatus")}: ${turn.expectedStatus} is an error status, so the turn changes nothing; ` +
        `drop expectedActiveStep, completed and expectState from it.`,
    );
  }
  problems.push(...errorToolCallsProblems(turn, index, answered));
  return problems;
}

/** A turn's patterns that do not compile, keys that need others, values the schema cannot check. */
function keyProblems(turn: ScenarioTurn, index: number): string[] {
  const problems: string[] = [];
  const at = (path: string) => turnPath(turn, index, path);
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
    problems.push(
      `${at("clockAt")}: ${show(turn.clockAt)} is not an ISO 8601 instant; use a value such as 2027-07-16T09:00:00.000Z.`,
    );
  }
  if (turn.failModelCall !== undefined && turn.modelFault !== undefined) {
    problems.push(
      `${at("modelFault")}: the turn also has failModelCall ${turn.failModelCall}, which is the modelFault ` +
        `{ "call": ${turn.failModelCall}, "kind": "error" }, and a turn takes one fault; keep one of them.`,
    );
  }
  if (turn.minScore !== undefined && turn.expectedResponse === undefined) {
    problems.push(
      `${at("minScore")}: has no effect without expectedResponse; add the expectation the judge grades, or drop minScore.`,
    );
  }
  return problems;
}

/** A success's keys that need others, as a turn's minScore needs its expectedResponse. */
function successProblems(success: Scenario["success"]): string[] {
  if (success?.minScore === undefined || success.judge !== undefined) return [];
  return ["success.minScore: has no effect without judge; add the criterion the judge grades, or drop minScore."];
}

/**
 * What the schema cannot say: unique labels, a registered flow, existing steps, regexes that compile,
 * an input that is not text only where a LangGraph target resumes an interrupt with it.
 * It reads what the schema let through: `touchedTurns` had a schema problem, so a key missing from
 * them is likely the mistake's own and is not reported again.
 */
export function meaningProblems(
  scenario: Scenario,
  flows: readonly FlowDefinition[],
  touchedTurns: ReadonlySet<number>,
  outline?: FlowOutline,
): string[] {
  const problems: string[] = [];
  // The target the scenario is played against decides: one of another kind serves it even when a
  // flow of our engine has its name; a flowcheck server runs our engine's flow where it is registered.
  const named = flows.find((candidate) => candidate.name === scenario.flowName);
  const served = outline !== undefined && outline.name === scenario.flowName;
  const foreign = served && (outline.kind !== "flowcheck" || !named) ? outline : undefined;
  const engineFlow = foreign ? undefined : named;
  const flow = engineFlow ?? foreign;
  if (!flow && scenario.flowName !== undefined) {
    const names = flows.map((candidate) => candidate.name);
    const guess = closestName(scenario.flowName, names);
    problems.push(
      `flowName: "${scenario.flowName}" is not a registered flow${guess ? `; did you mean ${guess}?` : "."} ` +
        `The flows are ${names.join(", ")}.`,
    );
  }
  problems.push(...scenarioEnvProblems(scenario.env, scenario.flowName, engineFlow));
  // A target of another kind keys its state otherwise than by step, and may list no steps at all.
  const references = stepReferences(scenario).filter(
    (reference) => !foreign || (!reference.state && foreign.stepNames !== undefined),
  );
  const checkSteps = (turn: number | undefined) => {
    for (const reference of references) {
      const problem = reference.turn === turn && flow && unknownStep(flow, reference.step);
      if (problem) problems.push(`${reference.path}: ${problem}`);
    }
  };
  const labels = new Map<string, number>();
  (scenario.turns ?? []).forEach((turn, index) => {
    const first = turn.label === undefined ? undefined : labels.get(turn.label);
    if (first !== undefined)
      problems.push(
        `${turnPath(turn, index, "label")}: "${turn.label}" is also the label of turns[${first}]; ` +
          `labels name the tests, so each must be unique.`,
      );
    else if (turn.label !== undefined) labels.set(turn.label, index);
    problems.push(...statusProblems(turn, index, touchedTurns.has(index), foreign));
    if (engineFlow)
      problems.push(...stateShapeProblems(turn.expectState, (step) => turnPath(turn, index, `expectState.${step}`)));
    if (flow) problems.push(...inputProblems(turn, index, flow));
    if (foreign) problems.push(...answerTypeProblems(turn, index, foreign), ...resultProblems(turn, index, foreign));
    checkSteps(index);
    problems.push(...keyProblems(turn, index));
  });
  checkSteps(undefined);
  if (engineFlow) {
    problems.push(...stateShapeProblems(scenario.finalState, (step) => `finalState.${step}`));
    problems.push(...stateShapeProblems(scenario.success?.finalState, (step) => `success.finalState.${step}`));
  }
  problems.push(...successProblems(scenario.success));
  return problems;
}
