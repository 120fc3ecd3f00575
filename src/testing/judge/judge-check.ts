import type { Check, Verdict } from "../checks/check.ts";
import { samplePasses, sampledVerdict } from "./sampled-verdict.ts";
import { samplesText } from "./samples-text.ts";

/** What an unstable verdict does (`JUDGE_UNSTABLE`): `report` keeps its majority's outcome, `fail` fails it. */
export type UnstableMode = "report" | "fail";

function details(verdict: Verdict): string {
  return [
    verdict.reason,
    verdict.missing.length ? `missing: ${verdict.missing.join("; ")}` : "",
    verdict.contradictions.length ? `contradictions: ${verdict.contradictions.join("; ")}` : "",
  ]
    .filter(Boolean)
    .join(" | ");
}

/**
 * The judge check of one verdict: passed only when `pass === true` and `score >= minScore`, else
 * failed saying which of the two it missed, with the judge's reason, missing and contradictions.
 */
export function gradedCheck(verdict: Verdict, minScore: number, expected: string): Check {
  const graded = { ...verdict, minScore };
  if (samplePasses(verdict, minScore))
    return { contract: "judge", name: "expectedResponse", outcome: "passed", verdict: graded, expected };
  const why =
    verdict.pass !== true
      ? `the judge did not pass it (score ${verdict.score})`
      : `score ${verdict.score} is below ${minScore}`;
  return {
    contract: "judge",
    name: "expectedResponse",
    outcome: "failed",
    message: `${why}: ${details(verdict)}`,
    verdict: graded,
    expected,
  };
}

/**
 * The judge check of a verdict of several samples: the majority of their graded outcomes, the
 * median score, and the missing and contradictions of the sample whose reason it gives. Its
 * `pass` is the majority's, so the verdict reads as its outcome does; an unstable verdict (the
 * samples disagree) keeps that outcome under `report` and fails under `fail`.
 */
export function sampledCheck(
  samples: readonly Verdict[],
  minScore: number,
  expected: string,
  unstable: UnstableMode,
): Check {
  const sampled = sampledVerdict(samples, minScore);
  const verdict: Verdict = { ...samples[sampled.chosen]!, pass: sampled.passed, score: sampled.score };
  const graded = { ...verdict, minScore, samples: sampled.samples, unstable: sampled.unstable };
  const counted = `${samplesText(sampled.samples, minScore)}, median ${sampled.score}`;
  const failedBy = (message: string): Check => ({
    contract: "judge",
    name: "expectedResponse",
    outcome: "failed",
    message: `${message}: ${details(verdict)}`,
    verdict: graded,
    expected,
  });
  if (sampled.unstable && unstable === "fail")
    return failedBy(
      `the judge's samples disagreed (${counted}; the majority ${sampled.passed ? "passed" : "failed"} it), and ` +
        "JUDGE_UNSTABLE=fail fails an unstable verdict; JUDGE_UNSTABLE=report only reports it",
    );
  if (sampled.passed)
    return { contract: "judge", name: "expectedResponse", outcome: "passed", verdict: graded, expected };
  return failedBy(`most samples did not pass it at ${minScore} (${counted})`);
}
