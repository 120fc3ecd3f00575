import { loadConfig, modelModeOf, type ModelMode } from "../../config.ts";
import { userForRun, type UserSetup } from "../user/user-for-run.ts";
import type { Cassette } from "../cassette/cassette.ts";
import type { SuiteOptions } from "./suite-options.ts";
import { judgeForRun, type JudgeSetup } from "../run/judge-for-run.ts";
import type { RunOptions } from "../run/run-options.ts";
import type { ScenarioTarget } from "../target/scenario-target.ts";

/**
 * What a flow suite's run of a scenario on `target` is played with: the spec's judge or the one
 * the environment allows (with why there is none), its domain checks (final and each turn's), the turn timeout, and the
 * headers every request carries.
 */
export function suiteRunOptions(
  target: ScenarioTarget,
  options: SuiteOptions,
  artifactsDir: string,
  flowName: string,
): { run: RunOptions; judging: JudgeSetup | undefined } {
  const config = target.config ?? loadConfig();
  const judging = options.judge
    ? undefined
    : judgeForRun(config, target.cassette, artifactsDir, target.provider?.fetchFor("judge"));
  const judge = options.judge ?? judging?.judge;
  const entry = options.flows.find((each) => each.flow.name === flowName);
  const steps = entry?.flow.stepNames ?? options.outline?.stepNames;
  // A simulated user is played as the flow's model is: its scripted user, a live model, or the tape.
  const mode = entry ? modelModeOf(config, entry.flow.envPrefix, "scripted") : (config.flowModel ?? "scripted");
  const user = tapedUser(
    userForRun(config, mode, entry?.user ?? options.users?.[flowName], flowName, target.provider?.fetchFor("user")),
    mode,
    target.cassette,
  );
  const run: RunOptions = {
    ...(judge ? { judge } : {}),
    ...(judging?.unavailable ? { judgeUnavailable: judging.unavailable } : {}),
    ...(judging?.required ? { judgeRequired: true } : {}),
    ...(options.domain ? { domain: options.domain } : {}),
    ...(options.eachTurn ? { eachTurn: options.eachTurn } : {}),
    ...(user.user ? { user: user.user } : {}),
    ...(user.unavailable ? { userUnavailable: user.unavailable } : {}),
    ...(steps ? { steps } : {}),
    turnTimeoutMs: config.turnTimeoutMs,
    ...(Object.keys(config.requestHeaders).length ? { headers: config.requestHeaders } : {}),
  };
  return { run, judging };
}

/** The user on the run's cassette: recorded around the live one, or played back with no key. */
function tapedUser(setup: UserSetup, mode: ModelMode, cassette: Cassette | undefined): UserSetup {
  if (cassette?.mode !== mode) return setup;
  if (mode === "replay") return { user: cassette.user(undefined), unavailable: undefined };
  return setup.user ? { user: cassette.user(setup.user), unavailable: undefined } : setup;
}
