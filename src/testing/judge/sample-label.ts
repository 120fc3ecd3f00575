import type { Verdict } from "../checks/check.ts";
import { askVerdict } from "./ask-verdict.ts";
import type { CalibrationItem } from "./calibrate-labels.ts";
import type { JudgeClient } from "./judge-client.ts";

/**
 * `samples` verdicts of the judge on a labelled answer, each a call of its own, one after the other
 * (so a tape holds them in the order they are replayed), each asked for once more when its answer
 * is not the verdict's JSON (`askVerdict`); a sample with no verdict in two tries is the problem
 * returned, quoting what came back. A failed call is thrown.
 */
export async function sampleLabel(
  item: CalibrationItem,
  samples: number,
  client: JudgeClient,
): Promise<{ verdicts: Verdict[] } | { problem: string }> {
  // The tape of a calibration is the labels', not a run's: its calls carry no JUDGE_SAMPLES to check.
  const asked: JudgeClient = (request) => client(request);
  const verdicts: Verdict[] = [];
  for (let index = 1; index <= samples; index++) {
    const answer = await askVerdict(asked, item.request, samples > 1 ? { index, of: samples } : undefined);
    if ("problem" in answer) return answer;
    verdicts.push(answer.verdict);
  }
  return { verdicts };
}
