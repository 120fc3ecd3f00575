import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Check } from "../../src/testing/checks/check.ts";
import type { JudgeResult, RunResults, TurnResult } from "../../src/testing/report/run-results.ts";
import { sampleConversation, sampleRunResults, sampleTurn } from "./sample-run-results.ts";

/** An answer with markup in it: the page must show it as text and hash it as it is. */
export const MARKUP_ANSWER = `The room costs <b>120 €</b> & "breakfast" isn't included <img src=x onerror=alert(1)>`;

/** An answer long enough that a terminal shows its beginning and end only. */
export const LONG_ANSWER = `Refunds: ${"you may cancel up to two days before arrival and get the whole price back. ".repeat(14)}The end.`;

function judged(
  number: number,
  label: string,
  input: string,
  answer: string,
  judge: Required<Pick<JudgeResult, "outcome" | "expected">> & Omit<JudgeResult, "outcome" | "expected">,
): TurnResult {
  const verdict: Check["verdict"] | undefined =
    judge.score === undefined
      ? undefined
      : {
          pass: judge.score >= 0.5,
          score: judge.score,
          minScore: judge.minScore ?? 0.75,
          reason: judge.reason ?? "",
          missing: [],
          contradictions: [],
        };
  const check: Check = {
    contract: "judge",
    name: "expectedResponse",
    outcome: judge.outcome,
    expected: judge.expected,
    ...(verdict ? { verdict } : {}),
    ...(judge.message ? { message: judge.message } : {}),
  };
  return sampleTurn(number, {
    label,
    input,
    answer: { text: answer, contentType: "application/json" },
    checks: [{ contract: "transport", name: "status", outcome: "passed" }, check],
    judge,
  });
}

/**
 * A run's results with four turns the judge gave a verdict, in this order: booking's "asks the date"
 * (passed 0.9), booking's "quotes the price" (failed 0.3, its answer with markup), the weekend case's
 * "greeting" (passed 0.8) and refund's "explains refunds" (failed 0.6 under 0.75, a long answer);
 * besides them a turn with no judge and a judged turn skipped, which no one can label.
 */
export function judgedRunResults(): RunResults {
  const booking = sampleConversation("booking", [
    sampleTurn(1, { label: "greeting", input: "Hi, I am Ada", answer: { text: "Hello Ada! When do you arrive?" } }),
    judged(2, "asks the date", "A room please", "Thanks Ada. Which date would you like?", {
      outcome: "passed",
      score: 0.9,
      minScore: 0.75,
      reason: "it asks for the date",
      expected: "asks for the date of the stay",
    }),
    judged(3, "quotes the price", "How much is it?", MARKUP_ANSWER, {
      outcome: "failed",
      score: 0.3,
      minScore: 0.75,
      reason: "it quotes no price <for breakfast>",
      expected: "quotes the room's price & says breakfast is extra",
    }),
  ]);
  const weekend = sampleConversation(
    "booking.weekend",
    [
      judged(1, "greeting", "Hi", "Hello! A weekend stay?", {
        outcome: "passed",
        score: 0.8,
        minScore: 0.75,
        reason: "a greeting",
        expected: "greets the user",
      }),
      judged(2, "asks the date", "Yes", "Which weekend?", {
        outcome: "skipped",
        message: "no OPENAI_API_KEY is set",
        expected: "asks which weekend",
      }),
    ],
    {
      caseLabel: "weekend",
      id: "journeys/booking.scenario.json#booking.weekend",
      file: "journeys/booking.scenario.json",
    },
  );
  const refund = sampleConversation("refund", [
    judged(1, "explains refunds", "Can I get my money back?", LONG_ANSWER, {
      outcome: "failed",
      score: 0.6,
      minScore: 0.75,
      reason: "it does not say how long a refund takes",
      expected: "explains the refund policy and how long a refund takes",
    }),
  ]);
  return sampleRunResults([booking, weekend, refund]);
}

/**
 * Writes `judgedRunResults()` as `<dir>/test/.tmp/run-results.json`, and the scenario files its
 * turns name (`journeys/…`), whose lines `flowcheck judge label` shows. Returns the results file.
 */
export function writeJudgedRun(dir: string, results: RunResults = judgedRunResults()): string {
  mkdirSync(join(dir, "journeys"), { recursive: true });
  const scenario = (labels: string[]) =>
    `${JSON.stringify({ flowName: "BasicFlow", turns: labels.map((label) => ({ label, input: "…" })) }, null, 2)}\n`;
  writeFileSync(
    join(dir, "journeys", "booking.scenario.json"),
    scenario(["greeting", "asks the date", "quotes the price"]),
  );
  writeFileSync(join(dir, "journeys", "refund.scenario.json"), scenario(["explains refunds"]));
  const file = join(dir, "test", ".tmp", "run-results.json");
  mkdirSync(join(dir, "test", ".tmp"), { recursive: true });
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  return file;
}
