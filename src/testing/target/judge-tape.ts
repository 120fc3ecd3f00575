import type { Config } from "../../config.ts";
import type { Cassette } from "../cassette/cassette.ts";
import { openTape } from "../cassette/open-tape.ts";
import type { LoadedScenario } from "../scenario/scenario.ts";
import type { ScenarioTarget } from "./scenario-target.ts";

/**
 * Whether a scenario played against a target of another kind has calls of ours to tape: a judged
 * turn or a simulated user. Without either it needs no cassette.
 */
export function hasJudgeTape(loaded: LoadedScenario): boolean {
  const { scenario } = loaded;
  return scenario.user !== undefined || scenario.turns.some((turn) => turn.expectedResponse !== undefined);
}

/**
 * A target that runs its models elsewhere with its judge's and simulated user's calls on tape:
 * with FLOW_MODEL=record, replay or auto, a scenario that has a judged turn or a user gets a
 * cassette next to it, as a flow of our engine does, holding those calls alone (the target's own
 * model is not ours to record) — unless `modelServed`: flowcheck serves the app's model at the
 * seam, and its calls join the tape, so every scenario has one. The target's configuration says
 * the tape's mode. Recording
 * saves it when the target closes; replaying a scenario with no cassette is `cassette_missing`.
 * A scenario with neither needs no cassette, so none is written or asked for.
 */
export async function withJudgeTape(
  target: ScenarioTarget,
  loaded: LoadedScenario,
  config: Config,
  modelServed = false,
): Promise<ScenarioTarget> {
  if (!modelServed && !hasJudgeTape(loaded)) return target;
  let tape: { cassette: Cassette | undefined; config: Config };
  try {
    tape = openTape(loaded, target.capabilities?.config ?? config);
  } catch (error) {
    await target.close();
    throw error;
  }
  const { cassette } = tape;
  if (!cassette) return target;
  return {
    ...target,
    capabilities: { ...target.capabilities, config: tape.config, cassette },
    close: async () => {
      await target.close();
      cassette.save();
    },
  };
}
