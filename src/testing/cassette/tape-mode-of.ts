import { existsSync } from "node:fs";
import type { Config } from "../../config.ts";
import { FlowcheckError } from "../../errors.ts";
import type { LoadedScenario } from "../scenario/scenario.ts";
import { cassettePathOf, type CassetteMode } from "./cassette.ts";

/** Whether a conversation's cassette is on disk: what `FLOW_MODEL=auto` replays instead of recording. */
export function hasCassette(loaded: LoadedScenario): boolean {
  return existsSync(cassettePathOf(loaded.file, loaded.caseLabel));
}

/**
 * The tape one conversation (a scenario, or a case of it) plays on: FLOW_MODEL's `record` or
 * `replay`; with `auto`, replay when its cassette exists, else record it, which CI never does and
 * which needs a key (both `cassette_missing`, saying how to record it); undefined when the run
 * tapes nothing. A replay under `auto` fails on a mismatch as any replay does: `auto` never records
 * over a cassette, so an unintended change cannot overwrite the proof of what it changed.
 */
export function tapeModeOf(loaded: LoadedScenario, config: Config): CassetteMode | undefined {
  const mode = config.flowModel;
  if (mode === "record" || mode === "replay") return mode;
  if (mode !== "auto") return undefined;
  if (hasCassette(loaded)) return "replay";
  const file = loaded.file;
  const missing = `FLOW_MODEL=auto has no cassette for ${file}: ${cassettePathOf(file, loaded.caseLabel)} does not exist`;
  if (config.ci)
    throw new FlowcheckError(
      "cassette_missing",
      `${missing}, and under CI a cassette is never recorded: run \`FLOW_MODEL=auto npm run test:flows -- ${file}\` ` +
        `(or \`npx flowcheck test ${file}\`) locally with a key and commit the cassette.`,
    );
  if (!config.openai.apiKey)
    throw new FlowcheckError(
      "cassette_missing",
      `${missing}, and recording it needs a key: set OPENAI_API_KEY (any value for a local server that ` +
        `ignores it) and run it again; FLOW_MODEL=auto then records the cassette, and replays it from then on.`,
    );
  return "record";
}

/**
 * The configuration a conversation plays on once its tape is chosen: FLOW_MODEL is the tape's
 * mode, no longer `auto`, so that whatever branches on the mode (the flows' models, the judge, the
 * simulated user, the provider's slots) sees a recording as `record` and a replay as `replay`.
 */
export function withTapeMode(config: Config, mode: CassetteMode | undefined): Config {
  return mode === undefined || config.flowModel === mode ? config : Object.freeze({ ...config, flowModel: mode });
}
