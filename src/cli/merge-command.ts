import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { mergeRunResults } from "../testing/report/merge-run-results.ts";
import { renderJunit } from "../testing/report/render-junit.ts";
import { renderSummary } from "../testing/report/render-summary.ts";
import { totalsLine } from "../testing/report/render-run-summary.ts";
import { simulatedLines } from "../testing/report/render-simulated.ts";
import type { RunResults } from "../testing/report/run-results.ts";
import { loadProjectFlows } from "../testing/target/project-flows.ts";
import { answerHelp } from "./answer-help.ts";
import { fileOptionsOf, refusedFiles } from "./file-options.ts";
import { ArgumentError } from "./run-arguments.ts";
import { failOnChecklist, reportChecklist } from "./run-checklist.ts";
import { RUN_RESULTS } from "./write-run-results.ts";
import { readResults, resultFiles } from "./results-files.ts";

const USAGE = `Usage: flowcheck merge <results files or folders>... [--out <file>] [--junit <file>] [--summary <file>]
                      [--compare <older results file>]

Merges the run-results.json of several runs (the shards of a sharded run: flowcheck test
--test-shard=i/n) into one, every conversation once and the totals counted again, and writes it
to --out (default test/.tmp/run-results.json). A folder stands for every run-results.json under
it. --junit writes one JUnit XML report of the merge; --summary appends a Markdown summary (pass
rate per turn, judge score spread, tokens, flow coverage, checklist, failures) to a file, such as
$GITHUB_STEP_SUMMARY; with --compare it starts with what changed since that older run: newly
failing, fixed, still failing, flaky, new and removed scenarios. The new-flow checklist is judged
again over the merge; FLOW_CHECKLIST=strict fails it (exit 1).`;

type Options = Partial<Record<"--out" | "--junit" | "--summary" | "--compare", string>>;

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

interface Read {
  files: string[];
  merged: RunResults;
  older: RunResults | undefined;
  options: Options;
}

/** The results files `args` name, merged, the older run to compare with, and the options; throws an ArgumentError or a FlowcheckError. */
function mergedOf(args: readonly string[]): Read | undefined {
  const { inputs, options } = fileOptionsOf(args, ["--out", "--junit", "--summary", "--compare"]);
  if (inputs.length === 0) return undefined;
  const files = [...new Set(inputs.flatMap(resultFiles))];
  if (files.length === 0)
    throw new ArgumentError(
      `no ${RUN_RESULTS} under ${inputs.join(", ")}; give the folders the shards' test/.tmp were downloaded to.`,
    );
  return {
    files,
    merged: mergeRunResults(files.map((file) => ({ file, results: readResults(file) }))),
    older: options["--compare"] === undefined ? undefined : readResults(options["--compare"]),
    options,
  };
}

/**
 * `flowcheck merge <results>... [--out] [--junit] [--summary] [--compare]`: 0 once written, 1 for
 * a failed checklist, 2 when it cannot merge.
 */
export async function mergeCommand(args: readonly string[]): Promise<number> {
  if (answerHelp(USAGE, args)) return 0;
  let read: ReturnType<typeof mergedOf>;
  try {
    read = mergedOf(args);
  } catch (error) {
    return refusedFiles("merge", error);
  }
  if (!read) {
    console.error(USAGE);
    return 2;
  }
  const { files, merged, older, options } = read;
  const out = options["--out"] ?? join("test", ".tmp", RUN_RESULTS);
  // Judged again over every shard's conversations: a flow whose scenarios were spread over shards is judged whole.
  const checklist = reportChecklist(merged, out, await loadProjectFlows());
  if (checklist) merged.checklist = checklist;
  write(out, `${JSON.stringify(merged, null, 2)}\n`);
  console.log(`merged ${files.length} result file${files.length === 1 ? "" : "s"} into ${out}: ${totalsLine(merged)}`);
  for (const line of simulatedLines(merged.simulated)) console.log(line);
  if (options["--junit"]) {
    write(options["--junit"], renderJunit(merged));
    console.log(`JUnit report: ${options["--junit"]}`);
  }
  if (options["--summary"]) appendFileSync(options["--summary"], renderSummary(merged, older));
  return failOnChecklist(merged) ? 1 : 0;
}
