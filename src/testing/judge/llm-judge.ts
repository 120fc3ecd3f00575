import type { Check, Verdict } from "../checks/check.ts";
import { FlowcheckError } from "../../errors.ts";
import { DEFAULT_JUDGE_MIN_SCORE } from "../scenario/scenario.ts";
import type { Judge } from "./judge.ts";
import { JudgeCache } from "./judge-cache.ts";
import { gradedCheck, sampledCheck, type UnstableMode } from "./judge-check.ts";
import type { JudgeClient, JudgeCompletion, JudgeRequest, JudgeSampleOf } from "./judge-client.ts";
import { judgePrompt, wholeJudgePrompt } from "./judge-prompt.ts";
import { askVerdict } from "./ask-verdict.ts";
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
  /** How many times each turn is graded (`JUDGE_SAMPLES`, odd; default 1). Above 1 the cache is not used. */
  samples?: number;
  /** What a verdict whose samples disagree does (`JUDGE_UNSTABLE`; default `report`). */
  unstable?: UnstableMode;
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

/** A judge check that failed without a verdict. */
function noVerdict(message: string): Check {
  return { contract: "judge", name: "expectedResponse", outcome: "failed", message };
}

/**
 * One verdict of the judge (`askVerdict`), counted in the stats; or the failed check, naming the
 * sample when it is one of several.
 */
async function verdictOf(
  client: JudgeClient,
  request: JudgeRequest,
  stats: JudgeStats,
  sample?: JudgeSampleOf,
): Promise<{ verdict: Verdict } | { failure: Check }> {
  let answer: Awaited<ReturnType<typeof askVerdict>>;
  try {
    answer = await askVerdict(client, request, sample, (completion) => countCompletion(stats, completion));
  } catch (error) {
    const which = sample ? ` for sample ${sample.index} of ${sample.of}` : "";
    // A cassette's refusal keeps its code, as a model call's does in its turn's 502.
    const code = error instanceof FlowcheckError ? `${error.code}: ` : "";
    return {
      failure: noVerdict(`the judge model ${request.model} failed${which}: ${code}${(error as Error).message}`),
    };
  }
  return "verdict" in answer ? answer : { failure: noVerdict(answer.problem) };
}

/**
 * A judge that asks a model for a verdict on each `expectedResponse`. The turn passes only when
 * `pass === true` and `score >=` the turn's `minScore`, else the scenario's `judgeMinScore`, else
 * 0.75. An answer that is not a valid verdict is asked for once more, then fails the check quoting
 * what came back. With `samples` above 1 the model is asked that many times, each a request of
 * its own (providers vary even at temperature 0, so no cache), and the verdict is their majority.
 */
export function createLlmJudge(options: LlmJudgeOptions): Judge {
  const stats = options.stats ?? newJudgeStats();
  const samples = options.samples ?? 1;

  return async (request) => {
    const { scenario, turn } = request;
    const model = scenario.judgeModel ?? options.model;
    const minScore = turn.minScore ?? scenario.judgeMinScore ?? DEFAULT_JUDGE_MIN_SCORE;
    const expected = turn.expectedResponse ?? "";
    const asked = { model, ...turnPrompt(request) };
    if (samples > 1) {
      const verdicts: Verdict[] = [];
      for (let index = 1; index <= samples; index++) {
        const answer = await verdictOf(options.client, asked, stats, { index, of: samples });
        if ("failure" in answer) return answer.failure;
        verdicts.push(answer.verdict);
      }
      return sampledCheck(verdicts, minScore, expected, options.unstable ?? "report");
    }
    const key = JudgeCache.key(asked);
    const cached = options.cache?.get(key);
    if (cached) {
      stats.cached += 1;
      return gradedCheck(cached, minScore, expected);
    }
    const answer = await verdictOf(options.client, asked, stats);
    if ("failure" in answer) return answer.failure;
    options.cache?.set(key, answer.verdict);
    return gradedCheck(answer.verdict, minScore, expected);
  };
}
