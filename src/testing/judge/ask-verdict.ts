import type { Verdict } from "../checks/check.ts";
import type { JudgeClient, JudgeCompletion, JudgeRequest, JudgeSampleOf } from "./judge-client.ts";
import { parseVerdict } from "./judge-verdict.ts";

function quote(text: string): string {
  return JSON.stringify(text.length > 300 ? `${text.slice(0, 300)}…` : text);
}

/**
 * One verdict of the judge, asked once more when its answer is not a valid verdict; else the
 * problem, quoting both answers and naming the sample when it is one of several. `answered` sees
 * each completion (a run counts them). A call that fails is thrown.
 */
export async function askVerdict(
  client: JudgeClient,
  request: JudgeRequest,
  sample?: JudgeSampleOf,
  answered?: (completion: JudgeCompletion) => void,
): Promise<{ verdict: Verdict } | { problem: string }> {
  const answers: string[] = [];
  for (let attempt = 1; attempt <= 2; attempt++) {
    const completion = await client(request, sample);
    answered?.(completion);
    const parsed = parseVerdict(completion.content);
    if ("verdict" in parsed) return parsed;
    answers.push(`${parsed.problem}: ${quote(completion.content)}`);
  }
  const which = sample ? ` for sample ${sample.index} of ${sample.of}` : "";
  return {
    problem:
      `the judge ${request.model} gave no valid verdict${which} in 2 tries (want {pass, score, reason, missing, contradictions}); ` +
      `it answered ${answers.join(", then ")}`,
  };
}
