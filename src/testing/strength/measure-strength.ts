import { availableParallelism } from "node:os";
import type { FlowDefinition } from "../../engine/flow.ts";
import type { FlowEntry } from "../../engine/scripted-model.ts";
import { FlowcheckError } from "../../errors.ts";
import { cassettePathOf } from "../cassette/cassette.ts";
import { hasCassette } from "../cassette/tape-mode-of.ts";
import { loadScenario } from "../scenario/load-scenario.ts";
import { scenarioCases } from "../scenario/scenario-cases.ts";
import type { LoadedScenario } from "../scenario/scenario.ts";
import { baselineObservations } from "./baseline-observations.ts";
import { generateMutants, type PlannedMutant, type StepOrder } from "./generate-mutants.ts";
import { mapInPool } from "./map-in-pool.ts";
import { mutantVerdict, type PlayPair } from "./mutant-verdict.ts";
import { playForStrength, type PlayOptions, type StrengthPlay } from "./strength-play.ts";
import { strengthScores, type FlowStrength, type JudgedMutant } from "./strength-score.ts";

export interface StrengthOptions {
  /** Scenario files; each case of a file is a scenario of its own. */
  files: readonly string[];
  /** The folder scenario names are taken under (`scenarios` unless given). */
  root?: string;
  flows: readonly FlowEntry[];
  env: Readonly<Record<string, string | undefined>>;
  /** Where each play's scratch database goes. */
  scratchDir: string;
  /** A mutant that makes the flow loop must end its turn, and counts as killed. */
  turnTimeoutMs?: number;
  /** How many mutants are played at once: the machine's cores unless given. */
  concurrency?: number;
}

/** A scenario that failed on the unmutated flows: it is left out, since it would kill every mutant. */
export interface FailingScenario {
  scenario: string;
  failure: string;
}

export interface StrengthResult {
  /** The scenarios that passed unmutated, which every mutant was played against where it reached them. */
  scenarios: string[];
  failing: FailingScenario[];
  judged: JudgedMutant[];
  scores: FlowStrength[];
}

// `auto` replays every scenario whose cassette exists; `refuseRecording` refuses it before a play where one does not.
const DETERMINISTIC = new Set(["scripted", "replay", "auto"]);

function refuseLive(mode: string | undefined, whose: string): void {
  if (mode === undefined || mode === "" || DETERMINISTIC.has(mode)) return;
  throw new FlowcheckError(
    "strength_refused",
    `${whose} runs with the ${mode} model: a strength run plays its mutants only scripted or in replay, ` +
      "so a verdict is the mutant's and not the model's. Unset FLOW_MODEL or set it to scripted or replay.",
  );
}

/** With FLOW_MODEL=auto, a scenario without its cassette would be recorded, live: refused before anything is played. */
function refuseRecording(mode: string | undefined, scenarios: readonly LoadedScenario[]): void {
  const missing = mode === "auto" ? scenarios.filter((loaded) => !hasCassette(loaded)) : [];
  if (!missing.length) return;
  throw new FlowcheckError(
    "strength_refused",
    "FLOW_MODEL=auto would record the cassette of " +
      missing.map((loaded) => `${loaded.name} (${cassettePathOf(loaded.file, loaded.caseLabel)})`).join(", ") +
      ", live: a strength run plays its mutants only scripted or in replay, so a verdict is the mutant's and " +
      `not the model's. Record ${missing.length === 1 ? "it" : "them"} first (\`FLOW_MODEL=auto npx flowcheck test ` +
      `${[...new Set(missing.map((loaded) => loaded.file))].join(" ")}\` with a key), or unset FLOW_MODEL.`,
  );
}

function stepOrderOf(flows: readonly FlowEntry[]): StepOrder {
  const steps = new Map<string, readonly string[]>();
  const add = (flow: FlowDefinition): void => {
    if (steps.has(flow.name)) return;
    steps.set(flow.name, flow.stepNames);
    flow.children.forEach(add);
  };
  for (const entry of flows) add(entry.flow);
  return (flow) => steps.get(flow) ?? [];
}

function firstFailure(play: StrengthPlay): string {
  // A turn's failure names its turn already.
  const turn = play.turns.find((candidate) => candidate.outcome === "failed");
  return turn?.failure ?? `final state: ${play.final?.failure ?? "failed"}`;
}

/**
 * Plays the scenarios on the unmutated flows, then each mutant their runs make possible against
 * the scenarios that reached its place, a few mutants at once and stopping at a mutant's first kill.
 */
export async function measureStrength(options: StrengthOptions): Promise<StrengthResult> {
  refuseLive(options.env["FLOW_MODEL"], "FLOW_MODEL");
  const definitions = options.flows.map((entry) => entry.flow);
  const scenarios: LoadedScenario[] = options.files.flatMap((file) =>
    scenarioCases(loadScenario(file, definitions, options.root === undefined ? {} : { root: options.root })),
  );
  const play: PlayOptions = {
    flows: options.flows,
    env: options.env,
    scratchDir: options.scratchDir,
    ...(options.turnTimeoutMs === undefined ? {} : { turnTimeoutMs: options.turnTimeoutMs }),
  };
  refuseRecording(options.env["FLOW_MODEL"], scenarios);
  const baselines = new Map<string, { loaded: LoadedScenario; play: StrengthPlay }>();
  const failing: FailingScenario[] = [];
  for (const loaded of scenarios) {
    const baseline = await playForStrength(loaded, play);
    for (const [flow, mode] of Object.entries(baseline.models)) refuseLive(mode, flow);
    if (baseline.outcome === "passed") baselines.set(loaded.name, { loaded, play: baseline });
    else failing.push({ scenario: loaded.name, failure: firstFailure(baseline) });
  }
  const observed = baselineObservations([...baselines.values()].map((baseline) => baseline.play));
  const judge = async ({ mutant, scenarios: reaching }: PlannedMutant): Promise<JudgedMutant> => {
    const pairs: PlayPair[] = [];
    for (const name of reaching) {
      const { loaded, play: baseline } = baselines.get(name)!;
      const mutated = await playForStrength(loaded, { ...play, mutant });
      pairs.push({ baseline, mutated });
      if (mutated.outcome === "failed") break;
    }
    return { mutant, verdict: mutantVerdict(pairs, mutant) };
  };
  const planned = generateMutants(observed, stepOrderOf(options.flows));
  const judged = await mapInPool(planned, options.concurrency ?? availableParallelism(), judge);
  return { scenarios: [...baselines.keys()], failing, judged, scores: strengthScores(judged) };
}
