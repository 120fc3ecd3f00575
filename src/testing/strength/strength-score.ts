import type { Mutant } from "./mutant.ts";
import type { MutantVerdict } from "./mutant-verdict.ts";

export interface JudgedMutant {
  mutant: Mutant;
  verdict: MutantVerdict;
}

export interface FlowStrength {
  flow: string;
  /** killed ÷ (killed + survived); null when no mutant was either. A timed-out mutant counts as killed. */
  score: number | null;
  killed: number;
  survived: number;
  timedOut: number;
  equivalent: number;
  notReached: number;
}

/** Each flow's score over its mutants (a child flow's own), in the order the flows first appear. */
export function strengthScores(judged: readonly JudgedMutant[]): FlowStrength[] {
  const flows = new Map<string, FlowStrength>();
  for (const { mutant, verdict } of judged) {
    let flow = flows.get(mutant.flow);
    if (!flow) {
      flow = { flow: mutant.flow, score: null, killed: 0, survived: 0, timedOut: 0, equivalent: 0, notReached: 0 };
      flows.set(mutant.flow, flow);
    }
    if (verdict.verdict === "killed") flow.killed++;
    if (verdict.verdict === "timed-out") flow.timedOut++;
    if (verdict.verdict === "survived") flow.survived++;
    if (verdict.verdict === "equivalent") flow.equivalent++;
    if (verdict.verdict === "not-reached") flow.notReached++;
  }
  for (const flow of flows.values()) {
    const caught = flow.killed + flow.timedOut;
    const counted = caught + flow.survived;
    flow.score = counted === 0 ? null : caught / counted;
  }
  return [...flows.values()];
}
