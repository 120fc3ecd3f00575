import type { Verdict } from "../checks/check.ts";
import type { CalibrationItem } from "./calibrate-labels.ts";
import type { JudgeClient } from "./judge-client.ts";
import { parseVerdict } from "./judge-verdict.ts";

function quote(text: string): string {
  return JSON.stringify(text.length > 300 ? `${text.slice(0, 300)}…` : text);
}

/**
 * `samples` verdicts of the judge on a labelled answer, each a call of its own, one after the other
 * (so a tape holds them in the order they are replayed). An answer that is not the verdict's JSON is
 * asked for once more, as a run's judge does; a sample with no verdict in two tries is the problem
 * returned, quoting what came back. A failed call is thrown.
 */
export async function sampleLabel(
  item: CalibrationItem,
  samples: number,
  client: JudgeClient,
): Promise<{ verdicts: Verdict[] } | { problem: string }> {
  const verdicts: Verdict[] = [];
  for (let sample = 1; sample <= samples; sample++) {
    const answers: string[] = [];
    for (let attempt = 1; attempt <= 2 && verdicts.length < sample; attempt++) {
      const completion = await client(item.request);
      const parsed = parseVerdict(completion.content);
      if ("verdict" in parsed) verdicts.push(parsed.verdict);
      else answers.push(`${parsed.problem}: ${quote(completion.content)}`);
    }
    if (verdicts.length < sample)
      return {
        problem:
          `the judge ${item.request.model} gave no valid verdict in 2 tries for sample ${sample} of ${samples} ` +
          `(want {pass, score, reason, missing, contradictions}); it answered ${answers.join(", then ")}`,
      };
  }
  return { verdicts };
}
