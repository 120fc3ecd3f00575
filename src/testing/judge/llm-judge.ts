import type { Check } from "../checks/check.ts";
import { DEFAULT_JUDGE_MIN_SCORE } from "../scenario/scenario.ts";
import type { Judge } from "./judge.ts";
import { JudgeCache } from "./judge-cache.ts";
import type { JudgeClient, JudgeCompletion } from "./judge-client.ts";
import { judgePrompt, wholeJudgePrompt } from "./judge-prompt.ts";
import { parseVerdict } from "./judge-verdict.ts";
import type { Verdict } from "../checks/check.ts";
import { inputText } from "../scenario/turn-input.ts";

/** What the judge did in a run, for the run's summary. */
export interface JudgeStats {
  calls: number;
  cached: number;
  replayed: number;
  promptTokens: number;
  completionTokens: number;
}

export function newJudgeStats(): JudgeStats {
  return { calls: 0, cached: 0, replayed: 0, promptTokens: 0, completionTokens: 0 };
}

export interface LlmJudgeOptions {
  client: JudgeClient;
  /** Used when the scenario names no `judgeModel`. */
  model: string;
  cache?: JudgeCache;
  stats?: JudgeStats;
}

function quote(text: string): string {
  return JSON.stringify(text.length > 300 ? `${text.slice(0, 300)}…` : text);
}

function grade(verdict: Verdict, minScore: number, expected: string): Check {
  const graded = { ...verdict, minScore };
  const ok = verdict.pass === true && verdict.score >= minScore;
  if (ok) return { contract: "judge", name: "expectedResponse", outcome: "passed", verdict: graded, expected };
  const why =
    verdict.pass !== true
      ? `the judge did not pass it (score ${verdict.score})`
      : `score ${verdict.score} is below ${minScore}`;
  const details = [
    verdict.reason,
    verdict.missing.length ? `missing: ${verdict.missing.join("; ")}` : "",
    verdict.contradictions.length ? `contradictions: ${verdict.contradictions.join("; ")}` : "",
  ].filter(Boolean);
  return {
    contract: "judge",
    name: "expectedResponse",
    outcome: "failed",
    message: `${why}: ${details.join(" | ")}`,
    verdict: graded,
    expected,
  };
}

/** Adds a completion to the stats: a call or a replay, and its tokens. */
function countCompletion(stats: JudgeStats, completion: JudgeCompletion): void {
  if (completion.source === "replay") stats.replayed += 1;
  else stats.calls += 1;
  stats.promptTokens += completion.usage?.promptTokens ?? 0;
  stats.completionTokens += completion.usage?.completionTokens ?? 0;
}

/**
 * The judge's prompt for a turn: the earlier turns that were answered, the input, the answer and
 * the expectation; for a `whole` request, every answered turn and the expectation as the criterion.
 */
function turnPrompt({ scenario, turn, answer, history, whole }: Parameters<Judge>[0]): ReturnType<typeof judgePrompt> {
  const conversation = history
    .filter((report) => report.answer !== undefined)
    .map((report) => ({ user: inputText(report.input), assistant: report.answer! }));
  const instructions = scenario.judgeInstructions ? { instructions: scenario.judgeInstructions } : {};
  if (whole)
    return wholeJudgePrompt({
      conversation: [...conversation, { user: inputText(turn.input), assistant: answer.text }],
      criterion: turn.expectedResponse ?? "",
      ...instructions,
    });
  return judgePrompt({
    conversation,
    input: inputText(turn.input),
    answer: answer.text,
    expectation: turn.expectedResponse ?? "",
    ...instructions,
  });
}

/**
 * A judge that asks a model for a verdict on each `expectedResponse`. The turn passes only when
 * `pass === true` and `score >=` the turn's `minScore`, else the scenario's `judgeMinScore`, else
 * 0.75. An answer that is not a valid verdict is asked for once more, then fails the check quoting
 * what came back.
 */
export function createLlmJudge(options: LlmJudgeOptions): Judge {
  const stats = options.stats ?? newJudgeStats();

  return async (request) => {
    const { scenario, turn } = request;
    const model = scenario.judgeModel ?? options.model;
    const minScore = turn.minScore ?? scenario.judgeMinScore ?? DEFAULT_JUDGE_MIN_SCORE;
    const expected = turn.expectedResponse ?? "";
    const prompt = turnPrompt(request);
    const key = JudgeCache.key({ model, ...prompt });
    const cached = options.cache?.get(key);
    if (cached) {
      stats.cached += 1;
      return grade(cached, minScore, expected);
    }
    const answers: string[] = [];
    for (let attempt = 1; attempt <= 2; attempt++) {
      let completion: JudgeCompletion;
      try {
        completion = await options.client({ model, ...prompt });
      } catch (error) {
        return {
          contract: "judge",
          name: "expectedResponse",
          outcome: "failed",
          message: `the judge model ${model} failed: ${(error as Error).message}`,
        };
      }
      countCompletion(stats, completion);
      const parsed = parseVerdict(completion.content);
      if ("verdict" in parsed) {
        options.cache?.set(key, parsed.verdict);
        return grade(parsed.verdict, minScore, expected);
      }
      answers.push(`${parsed.problem}: ${quote(completion.content)}`);
    }
    return {
      contract: "judge",
      name: "expectedResponse",
      outcome: "failed",
      message:
        `the judge ${model} gave no valid verdict in 2 tries (want {pass, score, reason, missing, contradictions}); ` +
        `it answered ${answers.join(", then ")}`,
    };
  };
}
