import type { SessionViewHead } from "./session-view.ts";
import { check, compared, skipped, type Check } from "./check.ts";
import { matchPartial } from "./match-partial.ts";
import { stateMatch, type StateKeys } from "./state-match.ts";
import type { Answer } from "../answer/read-answer.ts";
import type { ScenarioTurn } from "../scenario/scenario.ts";
import { compilePattern } from "../scenario/compile-pattern.ts";

/**
 * The turn's own expectations on the answer's text and on the stored state. `storeUnavailable` says
 * why the store cannot be read at all; expectState is then skipped with that reason, not failed.
 * `keyedBy` is how the stored state is keyed: by step (our engine), or by the keys of a target's
 * own state object, where a key that is missing is missing rather than an empty step.
 */
export function expectationChecks(
  turn: ScenarioTurn,
  answer: Answer,
  stored: SessionViewHead | undefined,
  storeUnavailable?: string,
  keyedBy: StateKeys = "step",
): Check[] {
  const checks = textChecks(turn, answer.text);
  if (turn.expectCsvRows !== undefined) {
    const problems = answer.csv
      ? matchPartial(turn.expectCsvRows, answer.csv.rows, "csv rows")
      : [`the answer is ${answer.mediaType || "untyped"}, not CSV`];
    checks.push(
      compared(
        "expectation",
        "expectCsvRows",
        problems.length ? problems.join("; ") : undefined,
        turn.expectCsvRows,
        answer.csv?.rows,
      ),
    );
  }
  return [...checks, ...stateChecks(turn, stored, storeUnavailable, keyedBy)];
}

/** responseMustInclude, responseMustNotInclude and responseMatches, on the answer's text. */
function textChecks(turn: ScenarioTurn, text: string): Check[] {
  const lower = text.toLowerCase();
  const checks: Check[] = [];
  turn.responseMustInclude?.forEach((needle, index) => {
    checks.push({
      ...check(
        "expectation",
        `responseMustInclude[${index}]`,
        lower.includes(needle.toLowerCase()) ? undefined : `the response lacks "${needle}"`,
      ),
      expected: needle,
    });
  });
  turn.responseMustNotInclude?.forEach((needle, index) => {
    checks.push({
      ...check(
        "expectation",
        `responseMustNotInclude[${index}]`,
        lower.includes(needle.toLowerCase()) ? `the response contains "${needle}"` : undefined,
      ),
      expected: needle,
    });
  });
  const patterns = turn.responseMatches === undefined ? [] : [turn.responseMatches].flat();
  patterns.forEach((pattern, index) => {
    checks.push({
      ...check(
        "expectation",
        `responseMatches[${index}]`,
        compilePattern(pattern).test(text) ? undefined : `the response does not match ${pattern}`,
      ),
      expected: pattern,
    });
  });
  return checks;
}

/** expectState, key by key, on the stored session; skipped with `storeUnavailable` when the store cannot be read. */
function stateChecks(
  turn: ScenarioTurn,
  stored: SessionViewHead | undefined,
  storeUnavailable: string | undefined,
  keyedBy: StateKeys,
): Check[] {
  return Object.entries(turn.expectState ?? {}).map(([step, expected]) => {
    if (storeUnavailable !== undefined) return skipped("expectation", `expectState.${step}`, storeUnavailable);
    const problems = stored ? stateMatch(expected, stored.steps, step, keyedBy) : ["the session is not stored"];
    return compared(
      "expectation",
      `expectState.${step}`,
      problems.length ? problems.join("; ") : undefined,
      expected,
      stored?.steps[step],
    );
  });
}
