import { resolve } from "node:path";
import type { RunEnd, RunEvent } from "./run-event.ts";
import { RunEventStream } from "./run-event-stream.ts";
import type { RunResults } from "./run-results.ts";
import { RunResultsReducer } from "./run-results-reducer.ts";
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

/** A conversation still open, told as far as it went when the run closes: a suite filtered out or cut short. */
export interface OpenConversation {
  closing(): RunEvent;
}

/**
 * One flowcheck test run's events, in this process: its suites emit them as they play, each
 * reader (a reporter) is handed every one (`reader()`), and the results add up as they come
 * (`results()`). The runner ends it once node:test is done.
 */
export class RunRecord {
  readonly scope: RunScope;
  readonly #open = new Set<OpenConversation>();
  readonly #dir: string;
  readonly #stream = new RunEventStream();
  readonly #results = new RunResultsReducer();

  constructor(scope: RunScope) {
    this.scope = scope;
    this.#dir = resolve(scope.artifactsDir);
  }

  /** Whether a suite writing its artifacts to `artifactsDir` is part of this run. */
  owns(artifactsDir: string): boolean {
    return resolve(artifactsDir) === this.#dir;
  }

  emit(event: RunEvent): void {
    this.#results.add(event);
    this.#stream.push(event);
  }

  /** Every event from now on, for one reader of its own. */
  reader(): AsyncIterableIterator<RunEvent> {
    return this.#stream.reader();
  }

  /** The run's results as its events so far add up. */
  results(): RunResults {
    return this.#results.results();
  }

  /** Keeps `conversation` to be told when the run closes, unless `settle` is called first. */
  keepOpen(conversation: OpenConversation): { settle(): void } {
    this.#open.add(conversation);
    return { settle: () => void this.#open.delete(conversation) };
  }

  /** Tells the end of every conversation still open, as far as it went. */
  close(): void {
    const open = [...this.#open];
    this.#open.clear();
    for (const conversation of open) this.emit(conversation.closing());
  }

  /** The run's last event; its readers end after it. */
  end(data: RunEnd): void {
    this.emit({ type: "run:end", data });
    this.#stream.end();
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
