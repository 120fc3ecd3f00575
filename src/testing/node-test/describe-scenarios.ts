import { after, before, describe, test } from "node:test";
import type { FlowEntry } from "../../engine/scripted-model.ts";
import { isFlowcheckError } from "../../errors.ts";
import type { DomainCheck, TurnCheck } from "../checks/domain-check.ts";
import type { Judge } from "../judge/judge.ts";
import { noteNotRun } from "../report/results-recorder.ts";
import { loadScenario, scenarioNameOf } from "../scenario/load-scenario.ts";
import { scenarioCases } from "../scenario/scenario-cases.ts";
import type { LoadedScenario } from "../scenario/scenario.ts";
import { describeRepeatedScenario, repeatOf } from "./describe-repeated-scenario.ts";
import { liveOnlySkip } from "./live-only-skip.ts";
import { parallelPlayOf } from "./parallel-play.ts";
import { suiteConfigOf } from "./suite-config.ts";
import { ScenarioFailure } from "./scenario-failure.ts";
import { ScenarioSuite, START_TEST } from "./scenario-suite.ts";

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
    noteNotRun({ file, name: scenarioNameOf(file, options.root) }, options.artifactsDir ?? "test/.tmp", "failed", `the file does not load: ${(error as Error).message}`);
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
  const config = suiteConfigOf(loaded);
  const liveOnly = liveOnlySkip(loaded, options, config);
  const repeat = repeatOf(config);
  if (liveOnly) noteNotRun(loaded, options.artifactsDir ?? "test/.tmp", "skipped", liveOnly);
  if (repeat.times > 1 && !liveOnly) {
    describeRepeatedScenario(loaded, options, repeat.times, repeat.passRate);
    return;
  }
  describe(`${loaded.scenario.flowName}: ${loaded.name}`, liveOnly ? { skip: liveOnly } : {}, () => {
    const suite = new ScenarioSuite(loaded, options);
    const parallel = liveOnly ? undefined : parallelPlayOf(config);
    if (parallel) suite.playInBackground(parallel.config, parallel.concurrency);
    else before(() => suite.ready());
    after(() => suite.end());
    test(START_TEST, (t) => suite.startTest(t));
    loaded.scenario.turns.forEach((turn, index) => {
      test(`${index + 1}. ${turn.label}`, (t) => suite.turnTest(t, index));
      if (turn.expectedResponse !== undefined) test(`${index + 1}. ${turn.label} · judge`, (t) => suite.judgeTest(t, index));
    });
    test("final state", (t) => suite.finalTest(t));
  });
}
