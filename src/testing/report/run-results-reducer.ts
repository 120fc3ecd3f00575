import { conversationResult, type HeardConversation } from "./conversation-result.ts";
import { mergeCoverage, type FlowCoverage } from "./flow-coverage.ts";
import { runResultsOf } from "./merge-run-results.ts";
import type { RunBegin, RunEnd, RunEvent, RunProblem } from "./run-event.ts";
import type { RunRecordLine, RunResults } from "./run-results.ts";

/**
 * run-results.json as the run's events add up, one event at a time: a pure fold, which holds a
 * conversation's events only until its end. `results()` may be asked at any point.
 */
export class RunResultsReducer {
  readonly #heard = new Map<string, HeardConversation>();
  readonly #lines: RunRecordLine[] = [];
  readonly #coverage: FlowCoverage = {};
  #begin: RunBegin | undefined;
  #end: RunEnd | undefined;
  #problem: RunProblem | undefined;

  add(event: RunEvent): void {
    switch (event.type) {
      case "run:begin":
        this.#begin = event.data;
        break;
      case "conversation:begin":
        this.#heard.set(event.data.id, { begin: event.data, reports: [] });
        break;
      case "turn": {
        const { conversation, ...report } = event.data;
        this.#of(conversation).reports.push(report);
        break;
      }
      case "final":
        this.#of(event.data.conversation).final = event.data;
        break;
      case "conversation:end":
        this.#lines.push({ conversation: conversationResult(this.#of(event.data.id), event.data) });
        this.#heard.delete(event.data.id);
        if (event.data.coverage) mergeCoverage(this.#coverage, event.data.coverage);
        break;
      case "spec:not-loaded":
        this.#lines.push({ specNotLoaded: event.data });
        break;
      case "proof":
        this.#lines.push({ projectProof: event.data });
        break;
      case "run:problem":
        this.#problem = event.data;
        break;
      case "run:end":
        this.#end = event.data;
        break;
    }
  }

  /** Why the run stopped before anything played, if it did: not part of its results. */
  get problem(): RunProblem | undefined {
    return this.#problem;
  }

  #of(id: string): HeardConversation {
    let heard = this.#heard.get(id);
    if (!heard) this.#heard.set(id, (heard = { reports: [] }));
    return heard;
  }

  /** The run's results so far: before `run:end`, its end time is its start's and it has no checklist. */
  results(): RunResults {
    const startedAt = this.#begin?.startedAt ?? this.#end?.endedAt ?? "";
    const { commit, shard } = this.#begin ?? {};
    const results = runResultsOf(this.#lines, {
      startedAt,
      endedAt: this.#end?.endedAt ?? startedAt,
      ...(commit ? { commit } : {}),
      ...(shard ? { shard } : {}),
    });
    if (Object.keys(this.#coverage).length) results.coverage = structuredClone(this.#coverage);
    if (this.#end?.checklist) results.checklist = this.#end.checklist;
    if (this.#begin?.judgeCalibration) results.judgeCalibration = this.#begin.judgeCalibration;
    return results;
  }
}

/** run-results.json of the run whose events these are. */
export function reduceRunResults(events: Iterable<RunEvent>): RunResults {
  const reducer = new RunResultsReducer();
  for (const event of events) reducer.add(event);
  return reducer.results();
}

/** run-results.json of the run whose events a reporter is handed, once the run ends. */
export async function collectRunResults(events: AsyncIterable<RunEvent>): Promise<RunResults> {
  return (await collectRun(events)).results;
}

/** The results of the run whose events a reporter is handed, and why it stopped before playing, if it did. */
export async function collectRun(
  events: AsyncIterable<RunEvent>,
): Promise<{ results: RunResults; problem: RunProblem | undefined }> {
  const reducer = new RunResultsReducer();
  for await (const event of events) reducer.add(event);
  return { results: reducer.results(), problem: reducer.problem };
}

/** Whether a run's files are written: it played, or it is a shard with nothing in it, which a merge must still find. */
export function leavesFiles(problem: RunProblem | undefined): boolean {
  return problem === undefined || problem.exitCode === 0;
}
