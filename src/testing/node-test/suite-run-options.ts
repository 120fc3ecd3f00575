import { derivedConfig, environment as processEnvironment, type Environment } from "../../config.ts";
import type { SuiteOptions } from "./suite-options.ts";
import { judgeForRun, type JudgeSetup } from "../run/judge-for-run.ts";
import type { RunOptions } from "../run/run-options.ts";
import { runUser } from "../run/run-user.ts";
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
  environment?: Environment,
): { run: RunOptions; judging: JudgeSetup | undefined } {
  // A target of one's own may carry no configuration: the run's environment (else the process's) then gives it.
  const can = target.capabilities;
  const config = can?.config ?? derivedConfig(environment ?? processEnvironment());
  const judging = options.judge
    ? undefined
    : judgeForRun(config, can?.cassette, artifactsDir, can?.provider?.fetchFor("judge"));
  const judge = options.judge ?? judging?.judge;
  const entry = options.flows.find((each) => each.flow.name === flowName);
  const steps = entry?.flow.stepNames ?? options.outline?.stepNames;
  const user = runUser(config, entry, options.users?.[flowName], flowName, target);
  const run: RunOptions = {
    ...(judge ? { judge } : {}),
    ...(judging?.unavailable ? { judgeUnavailable: judging.unavailable } : {}),
    ...(judging?.required ? { judgeRequired: true } : {}),
    ...(options.domain ? { domain: options.domain } : {}),
    ...(options.eachTurn ? { eachTurn: options.eachTurn } : {}),
    ...user,
    ...(steps ? { steps } : {}),
    turnTimeoutMs: config.turnTimeoutMs,
    ...(Object.keys(config.requestHeaders).length ? { headers: config.requestHeaders } : {}),
  };
  return { run, judging };
}
