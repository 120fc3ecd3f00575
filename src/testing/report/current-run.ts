import { AsyncLocalStorage } from "node:async_hooks";
import { derivedConfig, environment, type Config } from "../../config.ts";
import { RunArbiter } from "../limits/run-arbiter.ts";
import { runLimits, type RunLimits } from "../limits/run-limits.ts";
import { ScenarioCatalog } from "../scenario/scenario-catalog.ts";
import type { GraphsAsked } from "../target/langgraph/langgraph-step-names.ts";
import { servedApps, type ServedModel } from "../target/served-model.ts";
import type { StartedApps } from "../target/start/started-apps.ts";
import { loadTargetConfig, type TargetConfig } from "../target/target-config.ts";
import type { RunRecord, RunScope } from "./run-record.ts";

/**
 * One run as its suites see it: planned once by flowcheck test and handed to the specs node:test
 * imports (`withRun`), or made by a spec played without it (`currentRun`), with its own arbiter
 * and no record.
 */
export interface CurrentRun {
  /** The environment, read once: each scenario's configuration is derived from it under its `env` defaults. */
  readonly environment: Readonly<Record<string, string>>;
  /** That environment checked, or why it is not valid (each suite's first test then reports it). */
  readonly config: Config | Error;
  /** flowcheck.config.json (undefined: there is none); throws `target_config_invalid` when it does not load. */
  targets(): TargetConfig | undefined;
  /** Which scenarios, how many times each, where the run writes. */
  readonly scope: RunScope;
  /** What the run's own suites record; undefined for a spec played alone, whose results nobody reads. */
  readonly record: RunRecord | undefined;
  /** Whose slots every conversation of the run asks for. */
  readonly arbiter: RunArbiter;
  /** The LangGraph graphs asked for their nodes in this run, so each is asked once. */
  readonly graphsAsked: GraphsAsked;
  /**
   * The apps the run starts for its targets with a `start`, each once: closed when flowcheck test's
   * run ends, or when a suite of a run of its own ends.
   */
  readonly startedApps: StartedApps<ServedModel>;
  /** The scenario files the run found, each folder scanned and each header read once. */
  readonly scenarios: ScenarioCatalog;
}

// Set around node:test's run() by flowcheck test, so the specs it imports, their suites and their
// tests see the run they belong to; never reassigned, and holds nothing itself.
const runContext = new AsyncLocalStorage<CurrentRun>();

/** Calls `play` with `run` as the current run of everything it starts, node:test's imports and tests included. */
export function withRun<T>(run: CurrentRun, play: () => T): T {
  return runContext.run(run, play);
}

/** The run flowcheck test planned, when this code runs inside it. */
export function plannedRun(): CurrentRun | undefined {
  return runContext.getStore();
}

/** The run flowcheck test planned; outside one, a run of its own, read from the environment now. */
export function currentRun(): CurrentRun {
  return runContext.getStore() ?? localRun();
}

/** A run with no record and an arbiter of its own, for code played without flowcheck test. */
export function localRun(): CurrentRun {
  const read = environment();
  let config: Config | Error;
  try {
    config = derivedConfig(read);
  } catch (error) {
    config = error instanceof Error ? error : new Error(String(error));
  }
  return Object.freeze({
    environment: read,
    config,
    targets: () => loadTargetConfig(process.cwd(), read),
    scope: Object.freeze({ artifactsDir: "test/.tmp" }),
    record: undefined,
    arbiter: new RunArbiter(),
    graphsAsked: new WeakMap(),
    startedApps: servedApps({ env: read }, config instanceof Error ? undefined : config.flowModel),
    scenarios: new ScenarioCatalog(),
  });
}

/**
 * Whether a suite writing to `artifactsDir` is one of `run`'s own: only those are recorded in its
 * results and counted in its summary. A spec's fixture suite writing elsewhere is limited with
 * the rest, but nobody would read what it recorded.
 */
export function ownSuite(run: CurrentRun, artifactsDir: string): RunRecord | undefined {
  return run.record?.owns(artifactsDir) ? run.record : undefined;
}

/** The limits a suite writing to `artifactsDir` holds its conversations to: `run`'s, counted when the suite is its own. */
export function suiteLimits(run: CurrentRun, artifactsDir: string): RunLimits {
  return runLimits(run.arbiter, ownSuite(run, artifactsDir) !== undefined);
}
