import type { Config } from "../../config.ts";
import { Cassette, type CassetteMode } from "../cassette/cassette.ts";
import type { LoadedScenario } from "../scenario/scenario.ts";
import type { ScenarioTarget } from "./scenario-target.ts";

/**
 * How a scenario played against a target tapes its judge's and simulated user's calls:
 * FLOW_MODEL's `record` or `replay` when it has a judged turn or a simulated user; undefined when
 * it has neither (no call to tape) or the run tapes nothing.
 */
export function judgeTapeMode(loaded: LoadedScenario, config: Config): CassetteMode | undefined {
  const mode = config.flowModel;
  if (mode !== "record" && mode !== "replay") return undefined;
  const { scenario } = loaded;
  const taped = scenario.user !== undefined || scenario.turns.some((turn) => turn.expectedResponse !== undefined);
  return taped ? mode : undefined;
}

/**
 * A target that runs its models elsewhere with its judge's and simulated user's calls on tape:
 * with FLOW_MODEL=record or replay, a scenario that has a judged turn or a user gets a cassette
 * next to it, as a flow of our engine does, holding those calls alone (the target's own model is
 * not ours to record). Recording
 * saves it when the target closes; replaying a scenario with no cassette is `cassette_missing`.
 * A scenario with neither needs no cassette, so none is written or asked for.
 */
export async function withJudgeTape(
  target: ScenarioTarget,
  loaded: LoadedScenario,
  config: Config,
): Promise<ScenarioTarget> {
  const mode = judgeTapeMode(loaded, config);
  if (!mode) return target;
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
