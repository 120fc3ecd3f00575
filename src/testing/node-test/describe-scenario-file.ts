import { after, before, describe, test } from "node:test";
import type { Config } from "../../config.ts";
import { preview } from "../../engine/scripted-model.ts";
import { isFlowcheckError } from "../../errors.ts";
import { notRunEvent } from "../report/conversation-events.ts";
import { currentRun, plannedRun, type CurrentRun } from "../report/current-run.ts";
import { runRecordFor } from "../report/run-record.ts";
import { loadScenario, scenarioNameOf } from "../scenario/load-scenario.ts";
import { scenarioCases } from "../scenario/scenario-cases.ts";
import type { LoadedScenario } from "../scenario/scenario.ts";
import { cassettePathOf, type CassetteMode } from "../cassette/cassette.ts";
import { tapeModeOf, withTapeMode } from "../cassette/tape-mode-of.ts";
import { hasJudgeTape } from "../target/judge-tape.ts";
import { chooseTarget } from "../target/choose-target.ts";
import { liveOnlySkip } from "./live-only-skip.ts";
import { parallelPlayOf } from "./parallel-play.ts";
import { repeatOf } from "./repeat-of.ts";
import { ScenarioFailure } from "./scenario-failure.ts";
import { ScenarioSuite, START_TEST } from "./scenario-suite.ts";
import { suiteConfigOf } from "./suite-config.ts";
import { hasTestFilter } from "./test-filters.mjs";
import type { SuiteOptions } from "./suite-options.ts";

/**
 * One scenario file as node:test suites: a `describe` per conversation (a file with `cases` has
 * one per case, named `<name>.<case>`) and the same tests whether it is played once or `repeat`
 * times: the start test, `"<n>. <label>"` per turn, `"<n>. <label> · judge"` after a judged turn,
 * `simulated user: <persona>` when a simulated user goes on from there (a test of its own for
 * each message it wrote), then `final state`. After a failed turn the rest are skipped with the reason. What cannot be
 * checked (no judge, no store to read) is a skipped test saying why, never a pass. A file that does
 * not load is one failing test carrying every problem, and none of its turns runs.
 */
export function describeScenarioFile(file: string, options: SuiteOptions & { root: string }): void {
  const run = options.run ?? currentRun();
  // flowcheck test stops its run's apps when the run ends; a run of the file's own, when its tests end.
  if (run !== plannedRun()) after(() => run.startedApps.closeAll());
  let loaded: LoadedScenario;
  try {
    loaded = loadScenario(
      file,
      options.flows.map((entry) => entry.flow),
      { root: options.root, ...(options.outline ? { outline: options.outline } : {}) },
    );
  } catch (error) {
    describeInvalidFile(file, error);
    runRecordFor(options.artifactsDir ?? "test/.tmp")?.emit(
      notRunEvent(
        { file, name: scenarioNameOf(file, options.root) },
        "failed",
        `the file does not load: ${(error as Error).message}`,
      ),
    );
    return;
  }
  for (const each of scenarioCases(loaded)) describeConversation(each, { ...options, run });
}

/** A file that does not load, as one failing test carrying every problem. */
export function describeInvalidFile(file: string, error: unknown): void {
  test(`${file} is a valid scenario`, () => {
    throw isFlowcheckError(error) ? new ScenarioFailure(error.code, error.message) : error;
  });
}

/**
 * One conversation as a suite, named `<Flow>: <name>`, and `<Flow>: <name> × <n>` when it is
 * played n times: its tests' verdicts are then pass rates over the runs.
 */
function describeConversation(loaded: LoadedScenario, options: SuiteOptions & { run: CurrentRun }): void {
  const { run } = options;
  const configured = suiteConfigOf(loaded, run.environment);
  const config = configured instanceof Error ? undefined : configured;
  const liveOnly = liveOnlySkip(loaded, options, config);
  // A live-only scenario that cannot run now is one skipped suite, not n.
  const repeat = liveOnly ? { times: 1, passRate: 1 } : repeatOf(config, options.repeat ?? run.scope.repeat);
  if (liveOnly) runRecordFor(options.artifactsDir ?? "test/.tmp")?.emit(notRunEvent(loaded, "skipped", liveOnly));
  const name = `${loaded.scenario.flowName}: ${loaded.name}${repeat.times > 1 ? ` × ${repeat.times}` : ""}`;
  const tape = config === undefined ? undefined : plannedTape(loaded, config, options);
  // As FLOW_REPEAT is refused with FLOW_MODEL=record, so is a spec's or the run's repeat of a
  // recording: every run would write the same cassette.
  if (tape === "record" && repeat.times > 1) {
    test(`${name} is recorded once`, () => {
      throw new ScenarioFailure("scenario_invalid", recordedOnce(loaded, config!, repeat.times));
    });
    return;
  }
  describe(name, liveOnly ? { skip: liveOnly } : {}, () => {
    const filtered = run.scope.filtered === true || hasTestFilter(process.execArgv);
    const suite = new ScenarioSuite(loaded, options, { ...repeat, repeat: repeat.times, filtered }, configured);
    const parallel = liveOnly || !config ? undefined : parallelPlayOf(withTapeMode(config, tape), filtered);
    if (parallel) suite.play(parallel);
    else before(() => suite.play());
    after(() => suite.end());
    test(START_TEST, (t) => suite.startTest(t));
    loaded.scenario.turns.forEach((turn, index) => {
      test(`${index + 1}. ${turn.label}`, (t) => suite.turnTest(t, index));
      if (turn.expectedResponse !== undefined)
        test(`${index + 1}. ${turn.label} · judge`, (t) => suite.judgeTest(t, index));
    });
    const user = loaded.scenario.user;
    if (user) test(`simulated user: ${preview(user.persona, 60)}`, (t) => suite.simulationTest(t));
    test("final state", (t) => suite.finalTest(t));
  });
}

/**
 * The tape the conversation's target will open (`tapeModeOf`), known when the suite is defined, so
 * that a recording is played once and within the provider's slots. A flow that a target of another
 * kind serves has no definition here, and tapes only a judge's and a simulated user's calls. A tape
 * that cannot be opened (FLOW_MODEL=auto under CI, or without a key, and no cassette) is its start
 * test's to report, with the error its target fails with.
 */
function plannedTape(
  loaded: LoadedScenario,
  config: Config,
  options: SuiteOptions & { run: CurrentRun },
): CassetteMode | undefined {
  const flow = options.flows.some((entry) => entry.flow.name === loaded.scenario.flowName);
  if (!flow && !hasJudgeTape(loaded) && !modelServed(loaded, config, options)) return undefined;
  try {
    return tapeModeOf(loaded, config);
  } catch (error) {
    if (isFlowcheckError(error)) return undefined;
    throw error;
  }
}

/**
 * Whether the conversation's target is an app whose model flowcheck serves (its entry's `model`):
 * its model calls are then taped too. A target that cannot be chosen is its start test's to report.
 */
function modelServed(loaded: LoadedScenario, config: Config, options: SuiteOptions & { run: CurrentRun }): boolean {
  try {
    const targets = "targets" in options ? options.targets : options.run.targets();
    return chooseTarget(targets, loaded.scenario.target, config.flowTarget, loaded.file)?.entry.model !== undefined;
  } catch (error) {
    if (isFlowcheckError(error)) return false;
    throw error;
  }
}

/** Why a recording is not repeated: FLOW_MODEL=record asked for it, or auto found no cassette. */
function recordedOnce(loaded: LoadedScenario, config: Config, times: number): string {
  const flow = loaded.scenario.flowName;
  if (config.flowModel === "record")
    return (
      `${flow} records its cassette (FLOW_MODEL=record), and repeat: ${times} would write it ${times} times. ` +
      "Record once, then repeat with FLOW_MODEL=live or replay."
    );
  return (
    `${flow}: ${loaded.name} has no cassette (${cassettePathOf(loaded.file, loaded.caseLabel)}), so FLOW_MODEL=auto ` +
    `would record it, and repeat: ${times} would write it ${times} times. Record it once (FLOW_REPEAT=1: ` +
    `\`FLOW_MODEL=auto npx flowcheck test ${loaded.file}\`), then repeat: FLOW_MODEL=auto replays it.`
  );
}
