import { modelModeOf, type Config } from "../../config.ts";
import type { FlowEntry } from "../../engine/scripted-model.ts";
import type { ScriptedUser } from "../../engine/scripted-user.ts";
import type { ScenarioTarget } from "../target/scenario-target.ts";
import { userForRun, type UserSetup } from "../user/user-for-run.ts";
import type { RunOptions } from "./run-options.ts";

function tapedUser(setup: UserSetup, mode: string, target: ScenarioTarget): UserSetup {
  const cassette = target.capabilities?.cassette;
  if (cassette?.mode !== mode) return setup;
  if (mode === "replay") return { user: cassette.user(undefined), unavailable: undefined };
  return setup.user ? { user: cassette.user(setup.user), unavailable: undefined } : setup;
}

/**
 * Who plays a scenario's simulated user on `target`: as the flow's model is played (its scripted
 * user, or a live model), on the target's cassette when it runs in the cassette's mode, so a
 * replay plays the user back with no key. `scripted` stands in for a flow `entry` that has none.
 */
export function runUser(
  config: Config,
  entry: FlowEntry | undefined,
  scripted: ScriptedUser | undefined,
  flowName: string,
  target: ScenarioTarget,
): Pick<RunOptions, "user" | "userUnavailable"> {
  const mode = entry ? modelModeOf(config, entry.flow.envPrefix, "scripted") : (config.flowModel ?? "scripted");
  const setup = userForRun(
    config,
    mode,
    entry?.user ?? scripted,
    flowName,
    target.capabilities?.provider?.fetchFor("user"),
  );
  const { user, unavailable } = tapedUser(setup, mode, target);
  return { ...(user ? { user } : {}), ...(unavailable ? { userUnavailable: unavailable } : {}) };
}
