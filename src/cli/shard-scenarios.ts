import { ScenarioCatalog } from "../testing/scenario/scenario-catalog.ts";
import { specsOfFlows } from "../testing/node-test/flow-spec-name.ts";
import { isPlanProblem, type PlanProblem } from "./plan-problem.ts";
import { specsForScenarios } from "./specs-for-scenarios.ts";

export interface Shard {
  index: number;
  total: number;
}

export interface ShardRun {
  /** The spec files the shard runs. */
  files: string[];
  /** Its slice of the scenario files, the paths its run is narrowed to. */
  scenarioPaths: string[];
  /** How many scenario files there are across all shards. */
  scenarios: number;
  /** Those of its slice that no spec describes but a target serves (their `target`, or `flowTarget`), or a project's flow runs. */
  targetScenarios?: string[];
}

/**
 * Shard `shard` of a run: its even, contiguous slice of every scenario file (the paths given, or
 * `scenarios/`), sorted, with the flow specs that run them, so that the shards together play
 * each conversation exactly once. The specs that describe no flow's scenarios run in shard 1 only:
 * they are scripted and quick, and splitting them would not shorten a live run. A slice no spec
 * or target runs is the `PlanProblem` that stops the run.
 */
export function shardOf(
  files: readonly string[],
  scenarioPaths: readonly string[] | undefined,
  shard: Shard,
  flowTarget?: string,
  projectFlows: readonly string[] = [],
  catalog: ScenarioCatalog = new ScenarioCatalog(),
): ShardRun | PlanProblem {
  const scenarios = catalog.selected(scenarioPaths?.length ? scenarioPaths : ["scenarios"]);
  // The flow specs are those named after a flow of these scenarios (`InvoiceFlow` → `invoice-flow.spec.ts`).
  const flowSpecs = specsOfFlows(
    files,
    scenarios.files.map((file) => catalog.headerOf(file)?.flowName),
  );
  // Without a flow spec, a target or a project's flow no scenario runs at all, whatever scenarios/ holds.
  const targeted = scenarios.files.some((file) => {
    const header = catalog.headerOf(file);
    return typeof (header?.target ?? flowTarget) === "string" || projectFlows.some((name) => name === header?.flowName);
  });
  const found = flowSpecs.length || targeted ? scenarios : { files: [], misnamed: [], missing: [] };
  const all = found.files;
  const from = Math.floor(((shard.index - 1) * all.length) / shard.total);
  const to = Math.floor((shard.index * all.length) / shard.total);
  // What cannot be told apart as a scenario (a misnamed or missing path) is reported once, by shard 1.
  const odd = shard.index === 1 ? [...found.misnamed.map((file) => file.file), ...found.missing] : [];
  const slice = [...all.slice(from, to), ...odd];
  const chosen = slice.length
    ? specsForScenarios([...flowSpecs], slice, flowTarget, projectFlows, catalog)
    : { specs: [], targetScenarios: [] };
  if (isPlanProblem(chosen)) return chosen;
  const { specs, targetScenarios } = chosen;
  const runs = (file: string) => specs.includes(file) || (shard.index === 1 && !flowSpecs.includes(file));
  return {
    files: files.filter(runs),
    scenarioPaths: slice,
    scenarios: all.length,
    ...(targetScenarios.length ? { targetScenarios } : {}),
  };
}
