import { DEFAULT_RESULTS } from "./write-run-results.ts";
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { FlowcheckError } from "../errors.ts";
import { DEFAULT_JUDGE_LABELS } from "../testing/judge/judge-labels.ts";
import { judgedTurns } from "../testing/report/label-drafts.ts";
import type { RunResults } from "../testing/report/run-results.ts";
import { answerHelp } from "./answer-help.ts";
import { importJudgeLabels } from "./import-judge-labels.ts";
import { labelInTerminal } from "./judge-label-session.ts";
import { printFailure } from "./print-failure.ts";
import { readMergedResults, resultFiles } from "./results-files.ts";

const USAGE = `Usage: flowcheck judge label [<results>] [--labels <file>] [--import <downloaded labels file>]

Asks, one judged turn of a run's results at a time (default ${DEFAULT_RESULTS}; a folder stands
for the merge of every run-results.json under it; --results <file> says the same), whether the
judge's verdict is right: it shows the turn's file:line, the expectation, the answer and the
judge's verdict, score and reason, and reads one line: y (right), n (wrong), s (skip), q (quit);
a note may follow y or n ("n the price is wrong"). Each label is written to the labels file at once
(--labels, default ${DEFAULT_JUDGE_LABELS}), so a session ended by q, the end of the input or
Ctrl-C keeps what was labelled; a turn whose answer is labelled already is not asked again.

--import merges a judge-labels.json downloaded from the run's report into the labels file: a label
of an answer labelled already replaces the older one, each disagreement reported; a label of a turn
the results answered otherwise is set aside, saying so. Exits 1 when a file is not what it should
be (nothing is written then), 2 for a bad command line.`;

interface Request {
  results: string;
  labels: string;
  import: string | undefined;
}

function parsed(args: readonly string[]): Request | undefined {
  try {
    const { values, positionals } = parseArgs({
      args: [...args],
      options: { results: { type: "string" }, labels: { type: "string" }, import: { type: "string" } },
      allowPositionals: true,
    });
    if (positionals.length > 1 || (positionals.length === 1 && values.results !== undefined))
      throw new Error("give one results file or folder, as the argument or as --results.");
    return {
      results: positionals[0] ?? values.results ?? DEFAULT_RESULTS,
      labels: values.labels ?? DEFAULT_JUDGE_LABELS,
      import: values.import,
    };
  } catch (error) {
    console.error(`flowcheck judge label: ${(error as Error).message}\n\n${USAGE}`);
    return undefined;
  }
}

function resultsOf(path: string): RunResults {
  const files = resultFiles(path);
  if (files.length === 0)
    throw new FlowcheckError("results_invalid", `There is no run-results.json under ${path}; give a run's results.`);
  return readMergedResults(files);
}

async function label(request: Request): Promise<void> {
  if (request.import !== undefined) {
    // Without the default results, a downloaded file is merged unchecked: it came from a page, not this checkout's run.
    const check = request.results !== DEFAULT_RESULTS || existsSync(DEFAULT_RESULTS);
    importJudgeLabels({
      downloaded: request.import,
      labelsFile: request.labels,
      ...(check ? { results: { file: request.results, run: resultsOf(request.results) } } : {}),
    });
    return;
  }
  if (request.results === DEFAULT_RESULTS && !existsSync(DEFAULT_RESULTS))
    throw new FlowcheckError(
      "results_invalid",
      `There is no ${DEFAULT_RESULTS}: run flowcheck test first, or give the results to label.`,
    );
  const judged = judgedTurns(resultsOf(request.results));
  if (judged.length === 0) {
    console.log(
      `${request.results} holds no turn the judge gave a verdict (passed or failed with a score): nothing to label.`,
    );
    return;
  }
  await labelInTerminal(judged, request.labels);
}

/**
 * `flowcheck judge label [results] [--labels] [--import]`: 0 once done, 1 when a file is not what it
 * should be, 2 for a bad command line.
 */
export async function judgeLabelCommand(args: readonly string[]): Promise<number> {
  if (answerHelp(USAGE, args)) return 0;
  const request = parsed(args);
  if (!request) return 2;
  try {
    await label(request);
    return 0;
  } catch (error) {
    printFailure(error);
    return 1;
  }
}
