import { existsSync } from "node:fs";
import type { Config } from "../../config.ts";
import { FlowcheckError } from "../../errors.ts";
import type { Verdict } from "../checks/check.ts";
import { Cassette } from "../cassette/cassette.ts";
import type { CalibrationItem } from "../judge/calibrate-labels.ts";
import { openAIJudgeClient, type JudgeClient, type JudgeCompletion, type JudgeRequest } from "../judge/judge-client.ts";
import { ProviderGate } from "../limits/provider-gate.ts";
import { RunArbiter } from "../limits/run-arbiter.ts";
import { runLimits, type RunLimits } from "../limits/run-limits.ts";

/** A label's samples, or why it has none (a judge that gave no verdict, a call that failed, the token budget). */
export type SampleOutcome = { verdicts: Verdict[] } | { problem: string };

/** How one label is sampled, given the judge to ask. */
export type LabelSampler = (item: CalibrationItem, client: JudgeClient) => Promise<SampleOutcome>;

export interface CalibrationJudge {
  mode: "live" | "record" | "replay";
  /** The tape the calls are recorded to or replayed from; none when live. */
  tape: string | undefined;
  /** Each item's outcome, in the items' order; `saved` says what became of a recording. */
  grade(
    items: readonly CalibrationItem[],
    sample: LabelSampler,
  ): Promise<{ outcomes: SampleOutcome[]; saved?: string }>;
}

/** `scenarios/judge-labels.json` → `scenarios/judge-labels.cassette.json`: the tape of a labels file's calibration. */
export function calibrationTapeOf(labelsFile: string): string {
  return `${labelsFile.replace(/\.json$/, "")}.cassette.json`;
}

/** How a call on tape is named: the label that made it, by its place in the labels file. */
function tapeLabel(item: CalibrationItem): string {
  return `labels[${item.index}] ${item.label.file} › ${item.label.turn}`;
}

/** FLOW_MODEL's tape for a calibration: `auto` replays the tape when it exists, else records it. */
function modeOf(config: Config, tape: string): CalibrationJudge["mode"] {
  const asked = config.flowModel;
  if (asked === "record" || asked === "replay") return asked;
  if (asked === "auto") return existsSync(tape) ? "replay" : "record";
  return "live";
}

/**
 * The judge `flowcheck judge calibrate` asks, as FLOW_MODEL says: `replay` answers from the labels
 * file's tape, `record` records around the live judge, `auto` replays the tape when it exists and
 * records it otherwise (never under CI), anything else asks the live judge. Or, when it cannot be
 * had, why, saying what to do: a key to set or a tape to replay.
 */
export function calibrationJudge(config: Config, labelsFile: string): CalibrationJudge | { unavailable: string } {
  const tape = calibrationTapeOf(labelsFile);
  const mode = modeOf(config, tape);
  const open = (as: "record" | "replay") =>
    Cassette.at(tape, { file: labelsFile, name: labelsFile }, as, {
      modelName: config.openai.model,
      ci: config.ci,
      auto: config.flowModel === "auto",
    });
  if (mode === "replay") {
    if (!existsSync(tape))
      return {
        unavailable: `FLOW_MODEL=replay, but there is no tape ${tape}: record it first with FLOW_MODEL=record and an OPENAI_API_KEY`,
      };
    const cassette = open("replay");
    return { mode, tape, grade: (items, sample) => replayed(cassette, items, sample) };
  }
  if (mode === "record" && config.ci)
    return {
      unavailable:
        `under CI a tape is never recorded${config.flowModel === "auto" ? `, and there is no ${tape} to replay` : ""}: ` +
        `record ${tape} on a workstation (FLOW_MODEL=record) and commit it`,
    };
  const asking = liveAsking(config, labelsFile);
  if (!asking)
    return {
      unavailable:
        "no OPENAI_API_KEY is set, so no judge can be asked: set OPENAI_API_KEY (any value for a local server that " +
        `ignores it), or replay a tape with FLOW_MODEL=replay (${tape})`,
    };
  if (mode === "live")
    return {
      mode,
      tape: undefined,
      grade: async (items, sample) => ({ outcomes: (await askLive(asking, items, sample)).outcomes }),
    };
  return {
    mode,
    tape,
    grade: async (items, sample) => recorded(open("record"), await askLive(asking, items, sample), items),
  };
}

/** The live judge, its requests through the provider's gate (OPENAI_MAX_INFLIGHT, OPENAI_MAX_RPM, tokens counted); none without a key. */
function liveAsking(config: Config, labelsFile: string): Asking | undefined {
  const apiKey = config.openai.apiKey;
  if (!apiKey) return undefined;
  const limits = runLimits(new RunArbiter(), true);
  const gate = new ProviderGate(config, `judge calibrate: ${labelsFile}`, limits);
  const live = openAIJudgeClient({
    apiKey,
    baseURL: config.openai.baseURL,
    maxRetries: config.openai.maxRetries,
    timeoutMs: config.openai.timeoutMs,
    fetch: gate.fetchFor("judge"),
  });
  return { config, limits, live };
}

interface Asking {
  config: Config;
  limits: RunLimits;
  live: JudgeClient;
}

interface Call {
  request: JudgeRequest;
  completion: JudgeCompletion;
}

/**
 * Every item sampled by the live judge, as many at once as the run's limits let (a slot each, like
 * a conversation: FLOW_CONCURRENCY, else OPENAI_MAX_INFLIGHT; none once FLOW_MAX_TOKENS is spent),
 * each item's calls kept in the order it made them.
 */
async function askLive(
  { config, limits, live }: Asking,
  items: readonly CalibrationItem[],
  sample: LabelSampler,
): Promise<{ outcomes: SampleOutcome[]; calls: Call[][]; failed: boolean }> {
  const calls = items.map((): Call[] => []);
  let failed = false;
  const outcomes = await Promise.all(
    items.map(async (item, at): Promise<SampleOutcome> => {
      const held = await limits.hold({
        kind: "conversation",
        limit: config.limits.concurrency ?? config.limits.maxInflight,
        maxTokens: config.limits.maxTokens,
      });
      try {
        if (held.skip) {
          failed = true;
          return { problem: `not graded: ${held.skip}` };
        }
        const client: JudgeClient = async (request) => {
          const completion = await live(request);
          calls[at]!.push({ request, completion });
          return completion;
        };
        return await sample(item, client);
      } catch (error) {
        failed = true;
        return { problem: `the judge ${item.request.model} failed: ${(error as Error).message}` };
      } finally {
        held.release();
      }
    }),
  );
  return { outcomes, calls, failed };
}

/** The live calls put on tape in the labels' order, whatever order they were answered in, and the tape saved. */
async function recorded(
  cassette: Cassette,
  asked: Awaited<ReturnType<typeof askLive>>,
  items: readonly CalibrationItem[],
): Promise<{ outcomes: SampleOutcome[]; saved: string }> {
  if (asked.failed)
    return {
      outcomes: asked.outcomes,
      saved:
        `${cassette.path} was not written: a label was not graded (a judge call failed, or FLOW_MAX_TOKENS ` +
        "was spent), and a tape without its calls could not be replayed",
    };
  for (const [at, item] of items.entries()) {
    cassette.beginTurn(at + 1, tapeLabel(item));
    for (const call of asked.calls[at]!) await cassette.judge(async () => call.completion)(call.request);
  }
  cassette.save();
  return { outcomes: asked.outcomes, saved: `recorded ${cassette.path}` };
}

/** Every item sampled from the tape, one after the other as recorded; a tape with calls left over is refused. */
async function replayed(
  cassette: Cassette,
  items: readonly CalibrationItem[],
  sample: LabelSampler,
): Promise<{ outcomes: SampleOutcome[] }> {
  const outcomes: SampleOutcome[] = [];
  const client = cassette.judge(undefined);
  for (const [at, item] of items.entries()) {
    cassette.beginTurn(at + 1, tapeLabel(item));
    outcomes.push(await sample(item, client));
  }
  const left = cassette.leftovers();
  if (left) throw new FlowcheckError("cassette_mismatch", `${left} (Were labels removed, or --samples lowered?)`);
  return { outcomes };
}
