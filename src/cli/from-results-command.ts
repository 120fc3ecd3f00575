import { DEFAULT_RESULTS } from "./write-run-results.ts";
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { FlowcheckError } from "../errors.ts";
import { writeScenarioFromResults } from "../testing/capture/write-scenario-from-results.ts";
import { answerHelp } from "./answer-help.ts";
import { printFailure } from "./print-failure.ts";
import { readMergedResults, resultFiles } from "./results-files.ts";

const USAGE = `Usage: flowcheck from-results <conversation id> [--results <file>] [--out <file>] [--force]

Writes a conversation of a run's results (--results, default ${DEFAULT_RESULTS}; a folder
stands for the merge of every run-results.json under it) as a fixed scenario: each turn it played,
opening and simulated, with its input and the step, run status and HTTP status it left; its
success's phrases on the turns that said them, and its success.finalState as finalState. The id is
as the results give it (<file>#<name>, @<repeat> when repeated), or the name of a scenario run once.
--out defaults to beside the scenario it ran: <name>.from-run.scenario.json, <name>.from-run-<repeat>
for a repeat. Refuses a conversation that did not run or failed, and an existing file unless --force.`;

interface Request {
  id: string;
  results: string;
  out: string | undefined;
  force: boolean;
}

function parsed(args: readonly string[]): Request | undefined {
  try {
    const { values, positionals } = parseArgs({
      args: [...args],
      options: { results: { type: "string" }, out: { type: "string" }, force: { type: "boolean" } },
      allowPositionals: true,
    });
    if (positionals.length === 1)
      return {
        id: positionals[0]!,
        results: values.results ?? DEFAULT_RESULTS,
        out: values.out,
        force: values.force ?? false,
      };
  } catch (error) {
    console.error((error as Error).message);
  }
  console.error(USAGE);
  return undefined;
}

function writeScenario(request: Request): void {
  // The default file is missing until a run writes it: say so, rather than that no such file exists.
  if (request.results === DEFAULT_RESULTS && !existsSync(DEFAULT_RESULTS)) {
    throw new FlowcheckError(
      "results_invalid",
      `There is no ${DEFAULT_RESULTS}: run flowcheck test first, or pass --results <file>.`,
    );
  }
  const files = resultFiles(request.results);
  if (!files.length)
    throw new FlowcheckError("results_invalid", `There is no run-results.json under ${request.results}.`);
  const written = writeScenarioFromResults({
    id: request.id,
    results: readMergedResults(files),
    resultsFile: request.results,
    ...(request.out === undefined ? {} : { out: request.out }),
    force: request.force,
  });
  console.log(`flowcheck: wrote ${written.file} (${written.scenario.turns.length} turns)`);
  console.log(`flowcheck: run it with flowcheck test ${written.file}`);
}

/** `flowcheck from-results <conversation id> [--results] [--out] [--force]`: 0 once written, 1 when it cannot be, 2 for a bad command line. */
export async function fromResultsCommand(args: readonly string[]): Promise<number> {
  if (answerHelp(USAGE, args)) return 0;
  const request = parsed(args);
  if (!request) return 2;
  try {
    writeScenario(request);
    return 0;
  } catch (error) {
    printFailure(error);
    return 1;
  }
}
