import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { isFlowcheckError } from "../errors.ts";
import { totalsLine } from "../testing/report/render-run-summary.ts";
import { answerHelp } from "./answer-help.ts";
import { RUN_REPORT, RUN_RESULTS, writeReport } from "./write-run-results.ts";
import { readMergedResults, readResults, resultFiles } from "./results-files.ts";

const USAGE = `Usage: npm run report -- <results files or folders>... [--out <file>] [--compare <older results file>]

Renders a run's results (the run-results.json every run writes beside its own report.html) as one
self-contained HTML page, written to --out (default test/.tmp/report.html). Several files (a
sharded run's shards, or a folder holding them) are merged first, as results:merge merges them.
--compare lists first the turns whose outcome or judge score moved since that older run.`;
answerHelp(USAGE);

function fail(message: string): never {
  console.error(`report: ${message}`);
  process.exit(2);
}

function parseArgs(args: string[]): { inputs: string[]; out?: string; compare?: string } {
  const parsed: { inputs: string[]; out?: string; compare?: string } = { inputs: [] };
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    const [name, inline] = arg.includes("=")
      ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
      : [arg, undefined];
    if (name === "--out" || name === "--compare") {
      const value = inline ?? args[++index];
      if (!value) fail(`${name} takes a file path.`);
      parsed[name === "--out" ? "out" : "compare"] = value;
    } else if (arg.startsWith("-")) fail(`unknown option ${arg}; the options are --out and --compare.`);
    else parsed.inputs.push(arg);
  }
  return parsed;
}

const { inputs, out = join("test", ".tmp", RUN_REPORT), compare } = parseArgs(process.argv.slice(2));
if (inputs.length === 0) {
  console.error(USAGE);
  process.exit(2);
}
try {
  const files = [...new Set(inputs.flatMap(resultFiles))];
  if (files.length === 0)
    fail(`no ${RUN_RESULTS} under ${inputs.join(", ")}; give a run's results file or the folder holding it.`);
  const results = readMergedResults(files);
  mkdirSync(dirname(out), { recursive: true });
  writeReport(out, results, compare === undefined ? undefined : readResults(compare));
  console.log(`report of ${files.length} result file${files.length === 1 ? "" : "s"} (${totalsLine(results)}): ${out}`);
} catch (error) {
  if (!isFlowcheckError(error)) throw error;
  fail(`${error.message} (${error.code})`);
}
