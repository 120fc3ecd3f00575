import type { SessionHead } from "../../engine/session-document.ts";
import { check, compared, skipped, type Check } from "./check.ts";
import { matchPartial } from "./match-partial.ts";
import type { Answer } from "../answer/read-answer.ts";
import type { ScenarioTurn } from "../scenario/scenario.ts";
import { compilePattern } from "../scenario/compile-pattern.ts";

/**
 * The turn's own expectations on the answer's text and on the stored state. `storeUnavailable` says
 * why the store cannot be read at all; expectState is then skipped with that reason, not failed.
 */
export function expectationChecks(turn: ScenarioTurn, answer: Answer, stored: SessionHead | undefined, storeUnavailable?: string): Check[] {
  const text = answer.text;
  const lower = text.toLowerCase();
  const checks: Check[] = [];
  turn.responseMustInclude?.forEach((needle, index) => {
    checks.push({ ...check("expectation", `responseMustInclude[${index}]`, lower.includes(needle.toLowerCase()) ? undefined : `the response lacks "${needle}"`), expected: needle });
  });
  turn.responseMustNotInclude?.forEach((needle, index) => {
    checks.push({ ...check("expectation", `responseMustNotInclude[${index}]`, lower.includes(needle.toLowerCase()) ? `the response contains "${needle}"` : undefined), expected: needle });
  });
  const patterns = turn.responseMatches === undefined ? [] : [turn.responseMatches].flat();
  patterns.forEach((pattern, index) => {
    checks.push({ ...check("expectation", `responseMatches[${index}]`, compilePattern(pattern).test(text) ? undefined : `the response does not match ${pattern}`), expected: pattern });
  });
  if (turn.expectCsvRows !== undefined) {
    const problems = answer.csv ? matchPartial(turn.expectCsvRows, answer.csv.rows, "csv rows") : [`the answer is ${answer.mediaType || "untyped"}, not CSV`];
    checks.push(compared("expectation", "expectCsvRows", problems.length ? problems.join("; ") : undefined, turn.expectCsvRows, answer.csv?.rows));
  }
  for (const [step, expected] of Object.entries(turn.expectState ?? {})) {
    if (storeUnavailable !== undefined) {
      checks.push(skipped("expectation", `expectState.${step}`, storeUnavailable));
      continue;
    }
    const problems = stored ? matchPartial(expected, stored.steps[step] ?? {}, `steps.${step}`) : ["the session is not stored"];
    checks.push(compared("expectation", `expectState.${step}`, problems.length ? problems.join("; ") : undefined, expected, stored?.steps[step]));
  }
  return checks;
}
