import { join } from "node:path";
import type { Config } from "../../config.ts";
import type { Cassette } from "../cassette/cassette.ts";
import type { Judge } from "../judge/judge.ts";
import { JudgeCache } from "../judge/judge-cache.ts";
import { openAIJudgeClient, type JudgeClient } from "../judge/judge-client.ts";
import { createLlmJudge, newJudgeStats, type JudgeStats } from "../judge/llm-judge.ts";

export interface JudgeSetup {
  judge: Judge | undefined;
  /** Why there is no judge, when there is none. */
  unavailable: string | undefined;
  /** `JUDGE=required`: a missing judge fails the judged turns instead of skipping them. */
  required: boolean;
  stats: JudgeStats;
}

/**
 * The judge a run gets: replayed from the cassette, recorded around the live one, or live with
 * its verdicts cached; or none, with the reason. Cassettes bypass the cache, so their track of
 * calls is the same on every run; so do samples (`JUDGE_SAMPLES` above 1), each a request of its own.
 */
export function judgeForRun(
  config: Config,
  cassette: Cassette | undefined,
  artifactsDir: string,
  fetch?: typeof globalThis.fetch,
): JudgeSetup {
  const stats = newJudgeStats();
  const required = config.judge.mode === "required";
  const none = (unavailable: string): JudgeSetup => ({ judge: undefined, unavailable, required, stats });
  if (config.judge.mode === "off") return none("JUDGE=off, so expectedResponse is not graded");

  const apiKey = config.openai.apiKey;
  const live: JudgeClient | undefined = apiKey
    ? openAIJudgeClient({
        apiKey,
        baseURL: config.openai.baseURL,
        maxRetries: config.openai.maxRetries,
        timeoutMs: config.openai.timeoutMs,
        ...(fetch ? { fetch } : {}),
      })
    : undefined;
  const noKey = "no OPENAI_API_KEY is set, so no LLM judge can be reached and expectedResponse is not graded";
  let client: JudgeClient;
  if (cassette?.mode === "replay") {
    if (!cassette.hasJudgeCalls)
      return none(`${cassette.path} was recorded without a judge, so expectedResponse is not graded in replay`);
    client = cassette.judge(undefined);
  } else if (cassette?.mode === "record") {
    if (!live) return none(noKey);
    client = cassette.judge(live);
  } else {
    if (!live) return none(noKey);
    client = live;
  }
  // Samples are asked anew each run: a cached verdict would make every sample the same one.
  const cache =
    config.judge.cache && !cassette && config.judge.samples === 1
      ? new JudgeCache(join(artifactsDir, "judge-cache"))
      : undefined;
  const { samples, unstable } = config.judge;
  return {
    judge: createLlmJudge({ client, model: config.judge.model, stats, samples, unstable, ...(cache ? { cache } : {}) }),
    unavailable: undefined,
    required,
    stats,
  };
}
