import type { StrengthResult } from "./measure-strength.ts";
import type { Catch } from "./mutant-verdict.ts";
import type { PlayDifference } from "./play-differences.ts";
import type { FlowStrength } from "./strength-score.ts";

function scoreLine(flow: FlowStrength): string {
  const score = flow.score === null ? "no mutant killed or survived" : flow.score.toFixed(2);
  const counts = [
    `${flow.killed} killed`,
    `${flow.timedOut} timed out`,
    `${flow.survived} survived`,
    `${flow.equivalent} equivalent`,
    `${flow.notReached} not reached`,
  ];
  return `${flow.flow}: ${score} (${counts.join(", ")})`;
}

function turnOf(at: Catch): string {
  return at.turn ? `turn ${at.turn.number} '${at.turn.label}'` : "final state";
}

/** `hotel-flow turn 5 'dates chosen': DatesStep.nights saved as 6 instead of 7 and nothing checked it — add …`. */
export function differenceLine(difference: PlayDifference): string {
  return (
    `${difference.scenario} turn ${difference.turn} '${difference.label}': ${difference.what} ` +
    `and nothing checked it — add ${difference.expectation}`
  );
}

/** The terminal's account of a strength run: each flow's score, its survivors, the mutants marked equivalent, and the kills a live run would miss. */
export function renderStrength(result: StrengthResult): string {
  const lines = result.scores.map(scoreLine);
  for (const { scenario, failure } of result.failing)
    lines.push("", `left out, failing unmutated: ${scenario}: ${failure}`);
  for (const { mutant, verdict } of result.judged) {
    if (verdict.verdict === "survived") {
      lines.push("", `survived ${mutant.id}`);
      for (const difference of verdict.differences) lines.push(`  ${differenceLine(difference)}`);
    }
    if (verdict.verdict === "equivalent" && verdict.reason !== undefined)
      lines.push("", `equivalent ${mutant.id}: ${verdict.reason} (marked in flowcheck.config.json, not counted)`);
    if (verdict.verdict === "timed-out")
      lines.push("", `timed out ${mutant.id}: ${verdict.scenario} ${turnOf(verdict)} (counted as killed)`);
    if (verdict.verdict === "killed" && verdict.by !== "check") {
      lines.push(
        "",
        `killed only by the ${verdict.by === "script" ? "scripted model" : "cassette"} ${mutant.id}: ` +
          `${verdict.scenario} ${turnOf(verdict)} ${verdict.check}; a live run would not refuse it`,
      );
      for (const difference of verdict.differences ?? []) lines.push(`  ${differenceLine(difference)}`);
      lines.push(
        `  for a live run, ${verdict.scenario} ${turnOf(verdict)}: ${verdict.live ?? "add an expectation on its answer or stored state"}`,
      );
    }
  }
  return `${lines.join("\n")}\n`;
}
