import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { environment } from "../config.ts";
import { totalsLine } from "../testing/report/render-run-summary.ts";
import { secretsOf } from "../testing/report/without-secrets.ts";
import { answerHelp } from "./answer-help.ts";
import { fileOptionsOf, refusedFiles } from "./file-options.ts";
import { ArgumentError } from "./run-arguments.ts";
import { RUN_REPORT, RUN_RESULTS, writeReport } from "./write-run-results.ts";
import { readMergedResults, readResults, readStrengthBeside, resultFiles } from "./results-files.ts";

const USAGE = `Usage: flowcheck report <results files or folders>... [--out <file>] [--compare <older results file>]

Renders a run's results (the run-results.json every run writes beside its own report.html) as one
self-contained HTML page, written to --out (default test/.tmp/report.html). Several files (a
sharded run's shards, or a folder holding them) are merged first, as flowcheck merge merges them.
--compare starts the page with what changed since that older run: newly failing, fixed, still
failing, flaky, new and removed scenarios, and the turns whose outcome or judge score moved. A
strength-results.json beside the (first) results file, written by flowcheck strength, is shown too.`;

/** `flowcheck report <results>... [--out] [--compare]`: 0 once the page is written, 2 when it cannot be. */
export async function reportCommand(args: readonly string[]): Promise<number> {
  if (answerHelp(USAGE, args)) return 0;
  try {
    const { inputs, options } = fileOptionsOf(args, ["--out", "--compare"]);
    if (inputs.length === 0) {
      console.error(USAGE);
      return 2;
    }
    const { "--out": out = join("test", ".tmp", RUN_REPORT), "--compare": compare } = options;
    const files = [...new Set(inputs.flatMap(resultFiles))];
    if (files.length === 0)
      throw new ArgumentError(
        `no ${RUN_RESULTS} under ${inputs.join(", ")}; give a run's results file or the folder holding it.`,
      );
    const results = readMergedResults(files);
    mkdirSync(dirname(out), { recursive: true });
    const strength = readStrengthBeside(files);
    writeReport(out, results, {
      ...(compare === undefined ? {} : { compare: readResults(compare) }),
      ...(strength ? { strength } : {}),
      secrets: secretsOf(environment()),
    });
    console.log(
      `report of ${files.length} result file${files.length === 1 ? "" : "s"} (${totalsLine(results)}): ${out}`,
    );
    return 0;
  } catch (error) {
    return refusedFiles("report", error);
  }
}
