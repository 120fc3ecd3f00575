import { resolve } from "node:path";
import type { FlowDefinition } from "../../engine/flow.ts";
import type { SessionView } from "../target/session-view.ts";
import type { FlowOutline } from "../scenario/meaning-problems.ts";
import { addReachedToCoverage, addToCoverage, type FlowCoverage } from "./flow-coverage.ts";
import type { RunRecordLine } from "./run-results.ts";
import { ownSuite, plannedRun } from "./current-run.ts";

/** What a run asks of the flow suites it imports: which scenarios, how many times each. */
export interface RunScope {
  /** The run's artifacts folder: only suites writing there belong to the run (a spec's fixture suites write elsewhere). */
  artifactsDir: string;
  /** The scenario files and folders the run is narrowed to; undefined: every file. */
  scenarioPaths?: readonly string[] | undefined;
  /** How many times each conversation is played (`--repeat`); undefined: the suites' own setting. */
  repeat?: number | undefined;
  /** Whether node:test's filters (name patterns, `only`) may leave some of the suites' tests unrun. */
  filtered?: boolean;
  /** The scenario files no flow spec describes, played by the runner's own module against their targets or the project's flows. */
  targetScenarios?: readonly string[];
}

/** A conversation still open, written as far as it went when the run closes: a suite filtered out or cut short. */
export interface OpenConversation {
  closing(): RunRecordLine;
}

/**
 * What one flowcheck test run records as its suites play, in this process: every conversation's
 * result, what the scenarios reached of each flow, and the spec files that did not load. The
 * runner reads it once node:test is done and writes the run's one result from it.
 */
export class RunRecord {
  readonly scope: RunScope;
  readonly lines: RunRecordLine[] = [];
  readonly coverage: FlowCoverage = {};
  readonly #open = new Set<OpenConversation>();
  readonly #dir: string;

  constructor(scope: RunScope) {
    this.scope = scope;
    this.#dir = resolve(scope.artifactsDir);
  }

  /** Whether a suite writing its artifacts to `artifactsDir` is part of this run. */
  owns(artifactsDir: string): boolean {
    return resolve(artifactsDir) === this.#dir;
  }

  add(line: RunRecordLine): void {
    this.lines.push(line);
  }

  addCoverage(flow: FlowDefinition, document: SessionView): void {
    addToCoverage(this.coverage, flow, document);
  }

  /** A scenario of a flow that a target of another kind serves: the steps its turns were stored on. */
  addReached(outline: FlowOutline, reached: Iterable<string>): void {
    addReachedToCoverage(this.coverage, outline, reached);
  }

  /** Keeps `conversation` to be written when the run closes, unless `settle` is called first. */
  keepOpen(conversation: OpenConversation): { settle(): void } {
    this.#open.add(conversation);
    return { settle: () => void this.#open.delete(conversation) };
  }

  /** Every line of the run, the conversations still open written as far as they went. */
  close(): RunRecordLine[] {
    for (const conversation of this.#open) this.lines.push(conversation.closing());
    this.#open.clear();
    return this.lines;
  }
}

/**
 * The record of the run a suite writing to `artifactsDir` reports to; undefined outside flowcheck
 * test, or for a fixture suite writing elsewhere: nobody would read what it wrote.
 */
export function runRecordFor(artifactsDir: string): RunRecord | undefined {
  const run = plannedRun();
  return run && ownSuite(run, artifactsDir);
}
