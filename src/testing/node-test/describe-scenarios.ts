import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { FlowEntry } from "../../engine/scripted-model.ts";
import { describeRepeatedScenario, repeatOf } from "./describe-repeated-scenario.ts";
import { ChatClient } from "../client/chat-client.ts";
import { noteCoverage } from "../report/flow-coverage.ts";
import { flowProblems } from "../checks/flow-problems.ts";
import type { JudgeSetup } from "../run/judge-for-run.ts";
import { isFlowcheckError } from "../../errors.ts";
import { loadScenario } from "../scenario/load-scenario.ts";
import { ScenarioFailure } from "./scenario-failure.ts";
import { scenarioLocation } from "../scenario/scenario-location.ts";
import { scenarioCases } from "../scenario/scenario-cases.ts";
import type { LoadedScenario } from "../scenario/scenario.ts";
import { ScenarioRun } from "../run/scenario-run.ts";
import { clientOptions, type RunOptions } from "../run/run-options.ts";
import type { DomainCheck, TurnCheck } from "../checks/domain-check.ts";
import type { Judge } from "../judge/judge.ts";
import { startScenarioTarget, type ScenarioTarget } from "../target/scenario-target.ts";
import { liveOnlySkip } from "./live-only-skip.ts";
import { suiteRunOptions } from "./suite-run-options.ts";
import { TranscriptWriter } from "../report/transcript-writer.ts";

export interface ScenarioSuiteOptions {
  /** The flows the app serves (with their scripts); the scenario's flowName must be one of them. */
  flows: readonly FlowEntry[];
  /** Domain checks in code, run on the stored session after the last turn. */
  domain?: DomainCheck;
  /** Domain checks in code, run on the stored head after every answered turn (invariants). */
  eachTurn?: TurnCheck;
  judge?: Judge;
  /** Where failure transcripts go. Default `test/.tmp`. */
  artifactsDir?: string;
}

/**
 * The first test of every scenario: the app (or the external target) is up, lists the scenario's
 * flow with every step the scenario names, and its store answers.
 */
export const START_TEST = "the target starts, serves the flow, and the persisted contract can be checked";

/**
 * One scenario file as a node:test suite: a `describe` per scenario and a test per turn, named
 * `"<n>. <label>"`, each judged turn followed by `"<n>. <label> · judge"`, then `final state`.
 * After a failed turn the rest are skipped with the reason. What cannot be checked (no judge, no
 * store to read) is a skipped test saying why, never a pass. A file that does not load is one
 * failing test carrying every problem, and none of its turns runs. A file with `cases` is a suite
 * per case, named `<name>.<case>`.
 */
export function describeScenario(file: string, options: ScenarioSuiteOptions & { root?: string }): void {
  let loaded: LoadedScenario;
  try {
    loaded = loadScenario(file, options.flows.map((entry) => entry.flow), options.root === undefined ? {} : { root: options.root });
  } catch (error) {
    describeInvalidFile(file, error);
    return;
  }
  for (const each of scenarioCases(loaded)) describeLoaded(each, options);
}

/** A file that does not load, as one failing test carrying every problem. */
export function describeInvalidFile(file: string, error: unknown): void {
  test(`${file} is a valid scenario`, () => {
    throw isFlowcheckError(error) ? new ScenarioFailure(error.code, error.message) : error;
  });
}

/** One conversation as a suite: a scenario file, or one case of it. */
function describeLoaded(loaded: LoadedScenario, options: ScenarioSuiteOptions): void {
  const turns = loaded.scenario.turns;
  const liveOnly = liveOnlySkip(loaded, options);
  const repeat = repeatOf();
  if (repeat.times > 1 && !liveOnly) {
    describeRepeatedScenario(loaded, options, repeat.times, repeat.passRate);
    return;
  }

  describe(`${loaded.scenario.flowName}: ${loaded.name}`, liveOnly ? { skip: liveOnly } : {}, () => {
    let target: ScenarioTarget | undefined;
    let run: ScenarioRun;
    const artifactsDir = options.artifactsDir ?? "test/.tmp";
    const writer = new TranscriptWriter(artifactsDir);
    const where = () => (writer.path ? `\nTranscript: ${writer.path} (npm run transcript -- ${writer.path})` : "");
    // The turn's (or, without an index, the final expectations') line leads, for editors to open.
    const fail = (failure: string | undefined, turnIndex: number | undefined, after = ""): never => {
      throw new ScenarioFailure("scenario_failed", `${failure}${after}${where()}`, scenarioLocation(loaded, turnIndex) ?? loaded.name);
    };

    let judging: JudgeSetup | undefined;
    let runOptions: RunOptions = {};
    // A target that fails to start (bad environment, missing cassette) fails the first test with
    // its error, and the turns are skipped saying so, instead of all being cancelled without a word.
    let startError: unknown;
    const NOT_STARTED = "the target did not start; the first test has the error";
    // A target that does not serve the scenario's flow as the file expects would fail every turn
    // for that one reason: the first test says it once, and the turns are skipped.
    let unserved = false;
    const NOT_SERVED = "the target does not serve this scenario's flow as the file expects; the first test has the problems";
    const notReady = () => (startError !== undefined ? NOT_STARTED : unserved ? NOT_SERVED : undefined);

    before(async () => {
      try {
        target = await startScenarioTarget(loaded, { flows: options.flows });
      } catch (error) {
        startError = error;
        return;
      }
      const prepared = suiteRunOptions(target, options, artifactsDir);
      judging = prepared.judging;
      runOptions = prepared.run;
      const flow = options.flows.find((entry) => entry.flow.name === loaded.scenario.flowName)!.flow;
      run = new ScenarioRun(loaded, target, prepared.run).on(writer.listener).on((event) => {
        if (event.type === "final" && event.report.stored) noteCoverage(artifactsDir, flow, event.report.stored);
      });
      run.start();
    });
    after(async () => {
      run?.end();
      await target?.close();
    });

    test(START_TEST, async (t) => {
      if (startError) throw startError;
      const client = new ChatClient(target!.baseUrl, target!.agent, clientOptions(runOptions));
      let problems: string[];
      try {
        problems = await flowProblems(client, loaded.scenario);
      } catch (error) {
        problems = [(error as Error).message];
      } finally {
        client.close();
      }
      if (problems.length) {
        unserved = true;
        throw new ScenarioFailure("scenario_invalid", problems.join("\n"));
      }
      if (!target?.sessions) {
        t.skip(target?.sessionsUnavailable ?? "no store to read");
        return;
      }
      // A read of an id no server makes proves the store answers before any turn relies on it.
      assert.equal(await target.sessions.fetchAll("00000000-0000-0000-0000-000000000000"), undefined);
    });

    turns.forEach((turn, index) => {
      test(`${index + 1}. ${turn.label}`, async (t) => {
        const why = notReady();
        if (why) {
          t.skip(why);
          return;
        }
        // A name filter may have skipped earlier turns; the conversation still needs them, and a
        // failure among them is this test's failure, or a filtered run would pass without a word.
        while (run.reports.length < index && !run.failedTurn) {
          const earlier = await run.playTurn(run.reports.length);
          if (earlier.outcome === "failed") fail(earlier.failure, earlier.number - 1, ` (played before turn ${index + 1}, which needs it)`);
        }
        const failedTurn = run.failedTurn;
        if (failedTurn) {
          const reason = `turn ${failedTurn.number} failed`;
          run.skipTurn(index, reason);
          t.skip(reason);
          return;
        }
        const report = await run.playTurn(index);
        if (report.outcome === "failed") fail(report.failure, index);
        if (report.outcome === "skipped") t.skip(report.skipReason);
      });
      if (turn.expectedResponse !== undefined) {
        test(`${index + 1}. ${turn.label} · judge`, (t) => {
          const why = notReady();
          if (why) {
            t.skip(why);
            return;
          }
          const report = run.reports[index];
          const verdict = report?.checks.find((c) => c.contract === "judge");
          if (!report || report.outcome === "skipped") t.skip(report?.skipReason ?? `turn ${index + 1} did not run`);
          else if (!verdict) fail(`turn ${index + 1} '${turn.label}' has no judge verdict`, index);
          else if (verdict.outcome === "skipped") t.skip(verdict.message);
          else if (verdict.outcome === "failed") fail(`turn ${index + 1} '${turn.label}': ${verdict.message}`, index);
        });
      }
    });

    test("final state", async (t) => {
      const why = notReady();
      if (why) {
        t.skip(why);
        return;
      }
      while (run.reports.length < turns.length && !run.failedTurn) {
        const earlier = await run.playTurn(run.reports.length);
        if (earlier.outcome === "failed") fail(earlier.failure, earlier.number - 1, " (played before the final state, which needs it)");
      }
      const report = await run.finish();
      const stats = judging?.stats;
      if (stats && stats.calls + stats.cached + stats.replayed > 0) {
        t.diagnostic(
          `judge: ${stats.calls} calls made, ${stats.cached} cached, ${stats.replayed} replayed; ${stats.promptTokens + stats.completionTokens} tokens (${stats.promptTokens} prompt, ${stats.completionTokens} completion)`,
        );
      }
      if (report.outcome === "skipped") t.skip(report.skipReason);
      if (report.outcome === "failed") fail(report.failure, undefined);
    });
  });
}
