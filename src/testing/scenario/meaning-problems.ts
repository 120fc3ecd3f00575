import moment from "moment";
import type { FlowDefinition } from "../../engine/flow.ts";
import { closestName } from "./closest-name.ts";
import { compilePattern } from "./compile-pattern.ts";
import { isSuccessStatus } from "./is-success-status.ts";
import type { Scenario, ScenarioTurn } from "./scenario.ts";
import { scenarioEnvProblems } from "./scenario-env.ts";
import { show } from "./show.ts";
import { stepReferences } from "./step-references.ts";

function unknownStep(flow: FlowDefinition, step: string): string | undefined {
  if (flow.step(step)) return undefined;
  const guess = closestName(step, flow.stepNames);
  return `"${step}" is not a step of ${flow.name}${guess ? `; did you mean ${guess}?` : "."} Its steps are ${flow.stepNames.join(", ")}.`;
}

/** `turns[2].clockAt (turn "later")`: where in the file, with the turn's label when it has one. */
function turnPath(turn: ScenarioTurn, index: number, path: string): string {
  return turn.label === undefined ? `turns[${index}].${path}` : `turns[${index}].${path} (turn "${turn.label}")`;
}

/**
 * A turn's status against its expectations: an answered turn names its step, an error turn
 * expects no change. `touched` turns had a schema problem, whose missing keys may be its own.
 */
function statusProblems(turn: ScenarioTurn, index: number, touched: boolean): string[] {
  const problems: string[] = [];
  const at = (path: string) => turnPath(turn, index, path);
  const answered = isSuccessStatus(turn.expectedStatus ?? 200);
  if (answered && turn.expectedActiveStep === undefined && !touched) {
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
  if (turn.minScore !== undefined && turn.expectedResponse === undefined) {
    problems.push(
      `${at("minScore")}: has no effect without expectedResponse; add the expectation the judge grades, or drop minScore.`,
    );
  }
  return problems;
}

/**
 * What the schema cannot say: unique labels, a registered flow, existing steps, regexes that compile.
 * It reads what the schema let through: `touchedTurns` had a schema problem, so a key missing from
 * them is likely the mistake's own and is not reported again.
 */
export function meaningProblems(
  scenario: Scenario,
  flows: readonly FlowDefinition[],
  touchedTurns: ReadonlySet<number>,
): string[] {
  const problems: string[] = [];
  const flow = flows.find((candidate) => candidate.name === scenario.flowName);
  if (!flow && scenario.flowName !== undefined) {
    const names = flows.map((candidate) => candidate.name);
    const guess = closestName(scenario.flowName, names);
    problems.push(
      `flowName: "${scenario.flowName}" is not a registered flow${guess ? `; did you mean ${guess}?` : "."} ` +
        `The flows are ${names.join(", ")}.`,
    );
  }
  problems.push(...scenarioEnvProblems(scenario.env, scenario.flowName, flow));
  const references = stepReferences(scenario);
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
    problems.push(...statusProblems(turn, index, touchedTurns.has(index)));
    checkSteps(index);
    problems.push(...keyProblems(turn, index));
  });
  checkSteps(undefined);
  return problems;
}
