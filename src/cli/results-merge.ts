import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { isFlowcheckError } from "../errors.ts";
import { mergeRunResults } from "../testing/report/merge-run-results.ts";
import { renderJunit } from "../testing/report/render-junit.ts";
import { renderSummary } from "../testing/report/render-summary.ts";
import { totalsLine } from "../testing/report/render-run-summary.ts";
import type { RunResults } from "../testing/report/run-results.ts";
import { registeredFlows } from "../flows/index.ts";
import { answerHelp } from "./answer-help.ts";
import { failOnChecklist, reportChecklist } from "./run-checklist.ts";
import { RUN_RESULTS } from "./write-run-results.ts";
import { readResults, resultFiles } from "./results-files.ts";

const USAGE = `Usage: npm run results:merge -- <results files or folders>... [--out <file>] [--junit <file>] [--summary <file>]

Merges the run-results.json of several runs (the shards of a sharded run: run-specs
--test-shard=i/n) into one, every conversation once and the totals counted again, and writes it
to --out (default test/.tmp/run-results.json). A folder stands for every run-results.json under
it. --junit writes one JUnit XML report of the merge; --summary appends a Markdown summary (pass
rate per turn, judge score spread, tokens, failures) to a file, such as $GITHUB_STEP_SUMMARY.
The new-flow checklist is judged again over the merge; FLOW_CHECKLIST=strict fails it (exit 1).`;
answerHelp(USAGE);

const OPTIONS = ["--out", "--junit", "--summary"] as const;

function fail(message: string): never {
  console.error(`results:merge: ${message}`);
  process.exit(2);
}

function parseArgs(args: string[]): { inputs: string[]; options: Partial<Record<(typeof OPTIONS)[number], string>> } {
  const inputs: string[] = [];
  const options: Partial<Record<(typeof OPTIONS)[number], string>> = {};
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    const [name, inline] = arg.includes("=")
      ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
      : [arg, undefined];
    const option = OPTIONS.find((each) => each === name);
    if (option) {
      const value = inline ?? args[++index];
      if (!value) fail(`${option} takes a file path.`);
      options[option] = value;
    } else if (arg.startsWith("-")) fail(`unknown option ${arg}; the options are ${OPTIONS.join(", ")}.`);
    else inputs.push(arg);
  }
  return { inputs, options };
}

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

const { inputs, options } = parseArgs(process.argv.slice(2));
if (inputs.length === 0) {
  console.error(USAGE);
  process.exit(2);
}
let merged: RunResults;
let files: string[] = [];
try {
  files = [...new Set(inputs.flatMap(resultFiles))];
  if (files.length === 0)
    fail(`no ${RUN_RESULTS} under ${inputs.join(", ")}; give the folders the shards' test/.tmp were downloaded to.`);
  merged = mergeRunResults(files.map((file) => ({ file, results: readResults(file) })));
} catch (error) {
  if (!isFlowcheckError(error)) throw error;
  fail(`${error.message} (${error.code})`);
}
const out = options["--out"] ?? join("test", ".tmp", RUN_RESULTS);
// Judged again over every shard's conversations: a flow whose scenarios were spread over shards is judged whole.
const checklist = reportChecklist(merged, out, registeredFlows);
if (checklist) merged.checklist = checklist;
write(out, `${JSON.stringify(merged, null, 2)}\n`);
console.log(`merged ${files.length} result file${files.length === 1 ? "" : "s"} into ${out}: ${totalsLine(merged)}`);
if (options["--junit"]) {
  write(options["--junit"], renderJunit(merged));
  console.log(`JUnit report: ${options["--junit"]}`);
}
if (options["--summary"]) appendFileSync(options["--summary"], renderSummary(merged));
if (failOnChecklist(merged)) process.exitCode = 1;
