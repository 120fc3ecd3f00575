import type { Config } from "../../config.ts";
import type { LoadedScenario } from "../scenario/scenario.ts";
import { Cassette } from "./cassette.ts";
import { tapeModeOf, withTapeMode } from "./tape-mode-of.ts";

/**
 * A conversation's tape, opened where its target starts, and the configuration it plays on (its
 * FLOW_MODEL the tape's mode: `auto` decided here, once for the conversation). No cassette when the
 * run tapes nothing.
 */
export function openTape(loaded: LoadedScenario, config: Config): { cassette: Cassette | undefined; config: Config } {
  const mode = tapeModeOf(loaded, config);
  if (!mode) return { cassette: undefined, config };
  const cassette = Cassette.open(loaded, mode, {
    modelName: config.openai.model,
    ci: config.ci,
    auto: config.flowModel === "auto",
  });
  return { cassette, config: withTapeMode(config, mode) };
}
