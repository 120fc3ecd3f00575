import { FlowcheckError } from "../../errors.ts";
import { closestName } from "../scenario/closest-name.ts";
import type { StrengthResult } from "./measure-strength.ts";
import { strengthScores } from "./strength-score.ts";

/**
 * `result` with the mutants `marked` (id → reason, from flowcheck.config.json's
 * `strength.equivalent`) judged equivalent for that reason, so that they count in no score. A
 * marked id no mutant has is a `strength_marked_unknown` error naming the closest id: a mark left
 * behind by a renamed step or tool would otherwise hide nothing and say nothing.
 */
export function withMarkedEquivalents(
  result: StrengthResult,
  marked: Readonly<Record<string, string>>,
): StrengthResult {
  const ids = result.judged.map(({ mutant }) => mutant.id);
  const unknown = Object.keys(marked).filter((id) => !ids.includes(id));
  if (unknown.length) {
    const named = unknown.map((id) => {
      const guess = closestName(id, ids);
      return `"${id}"${guess ? ` (did you mean "${guess}"?)` : ""}`;
    });
    throw new FlowcheckError(
      "strength_marked_unknown",
      `flowcheck.config.json marks as equivalent ${named.join(", ")}, but no mutant of this run has that id; ` +
        `fix or remove it under "strength"."equivalent" (the ids are those flowcheck strength prints).`,
    );
  }
  const judged = result.judged.map(({ mutant, verdict }) => {
    const reason = Object.hasOwn(marked, mutant.id) ? marked[mutant.id] : undefined;
    return { mutant, verdict: reason === undefined ? verdict : { verdict: "equivalent" as const, reason } };
  });
  return { ...result, judged, scores: strengthScores(judged) };
}
