import type { Config } from "../../config.ts";
import { Cassette } from "../cassette/cassette.ts";
import type { LoadedScenario } from "../scenario/scenario.ts";
import type { ScenarioTarget } from "./scenario-target.ts";

/**
 * A target that runs its models elsewhere with its judge's calls on tape: with FLOW_MODEL=record
 * or replay, a scenario that has a judged turn gets a cassette next to it, as a flow of our engine
 * does, holding the judge's calls alone (the target's own model is not ours to record). Recording
 * saves it when the target closes; replaying a scenario with no cassette is `cassette_missing`.
 * A scenario no judge grades needs no cassette, so none is written or asked for.
 */
export async function withJudgeTape(
  target: ScenarioTarget,
  loaded: LoadedScenario,
  config: Config,
): Promise<ScenarioTarget> {
  const mode = config.flowModel;
  if (mode !== "record" && mode !== "replay") return target;
  if (!loaded.scenario.turns.some((turn) => turn.expectedResponse !== undefined)) return target;
  let cassette: Cassette;
  try {
    cassette = Cassette.open(loaded, mode, { modelName: config.openai.model, ci: config.ci });
  } catch (error) {
    await target.close();
    throw error;
  }
  return {
    ...target,
    cassette,
    close: async () => {
      await target.close();
      cassette.save();
    },
  };
}
