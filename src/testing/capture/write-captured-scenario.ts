import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { FlowcheckError } from "../../errors.ts";
import type { ModelWrapper } from "../../engine/model-factory.ts";
import { Cassette, cassettePathOf } from "../cassette/cassette.ts";
import { scenarioNameOf } from "../scenario/load-scenario.ts";
import { SCENARIO_SUFFIX } from "../scenario/scenario-discovery.ts";
import type { Scenario } from "../scenario/scenario.ts";
import { captureConversation, type CaptureOptions } from "./capture-conversation.ts";
import { leftoverReplies, queuedRepliesModel, type ReplyQueues } from "./reply-queues.ts";
import { scenarioOfCapture } from "./scenario-of-capture.ts";

const SCENARIO_NAME = /^[a-z0-9][a-z0-9-]*(\/[a-z0-9][a-z0-9-]*)*$/;
const SCHEMA = resolve(import.meta.dirname, "..", "..", "..", "scenarios", "scenario.schema.json");

export interface CaptureTarget {
  /** The scenarios folder, e.g. `scenarios`. */
  dir: string;
  /** The file's name under `dir` without `.scenario.json`, e.g. `basic-flow-1a2b3c4d`. */
  name: string;
  /** Overwrite a scenario (and cassette) of that name. */
  force: boolean;
  /** Write the cassette, so FLOW_MODEL=replay plays the conversation without a model. */
  cassette: boolean;
}

export interface WrittenScenario {
  file: string;
  cassette: string | undefined;
  scenario: Scenario;
}

/** `./scenario.schema.json` from `scenarios/`, as a person writes it, `../scenarios/…` from elsewhere. */
export function schemaPathFrom(dir: string): string {
  const path = relative(resolve(dir), SCHEMA).split("\\").join("/");
  return path.startsWith(".") ? path : `./${path}`;
}

/** Refuses a bad name, or files that exist, before anything is played or written. */
function checkTarget(target: CaptureTarget): { file: string; cassette: string } {
  if (!SCENARIO_NAME.test(target.name)) {
    throw new FlowcheckError(
      "scenario_name_invalid",
      `"${target.name}" is not a scenario name: ` +
        `use lower-case letters, digits and dashes (folders with /), e.g. tea-check or team/tea-check.`,
    );
  }
  const file = join(target.dir, `${target.name}${SCENARIO_SUFFIX}`);
  const cassette = cassettePathOf(file);
  const taken = [file, cassette].filter((path) => existsSync(path));
  if (taken.length && !target.force) {
    throw new FlowcheckError(
      "scenario_exists",
      `${taken.join(" and ")} already exist${taken.length === 1 ? "s" : ""}; choose another name, or pass --force to overwrite.`,
    );
  }
  return { file, cassette };
}

/**
 * Plays the conversation again on the replies it had, then writes the scenario its turns prove
 * (and, when asked, the cassette of its model calls). Nothing is written when the flow no longer
 * plays the conversation as it was held.
 */
export async function writeCapturedScenario(
  target: CaptureTarget,
  capture: Omit<CaptureOptions, "model" | "beforeTurn">,
  replies: { queues: ReplyQueues; source: string; description: string; env: Record<string, string> },
): Promise<WrittenScenario> {
  const paths = checkTarget(target);
  const queued = queuedRepliesModel(replies.queues, replies.source);
  const loaded = {
    file: paths.file,
    name: scenarioNameOf(paths.file, target.dir),
    scenario: { flowName: capture.flowName, turns: [] },
  };
  const cassette = target.cassette
    ? Cassette.open(loaded, "record", { modelName: capture.config.openai.model, ci: false })
    : undefined;
  const model: ModelWrapper = cassette
    ? (context, make) => cassette.models(context, () => queued(context, make))
    : queued;
  const captured = await captureConversation({
    ...capture,
    model,
    beforeTurn: (turn) => cassette?.beginTurn(turn, `turn ${turn}`),
  });
  const unused = leftoverReplies(replies.queues);
  if (unused.length) {
    throw new FlowcheckError(
      "capture_diverged",
      `Replaying ${replies.source}: the flow asked its model fewer times than in the conversation ` +
        `(replies never asked for: ${unused.join(", ")}), so the flow has changed since it was held. ` +
        `Hold the conversation again on the current flow.`,
    );
  }
  const scenario = scenarioOfCapture(captured, {
    flowName: capture.flowName,
    description: replies.description,
    env: replies.env,
    schema: schemaPathFrom(target.dir),
  });
  mkdirSync(join(paths.file, ".."), { recursive: true });
  writeFileSync(paths.file, `${JSON.stringify(scenario, null, 2)}\n`);
  // A stale tape beside a scenario written again without one would make replay fail on it.
  if (cassette) cassette.save();
  else rmSync(paths.cassette, { force: true });
  return { file: paths.file, cassette: cassette?.path, scenario };
}
