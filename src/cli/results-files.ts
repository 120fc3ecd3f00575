import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { FlowcheckError } from "../errors.ts";
import { asRunResults, mergeRunResults } from "../testing/report/merge-run-results.ts";
import type { RunResults } from "../testing/report/run-results.ts";
import { STRENGTH_RESULTS, type StrengthResults } from "../testing/strength/strength-results.ts";
import { RUN_RESULTS } from "./write-run-results.ts";

/** Every run-results.json under `path`, or `path` itself when it is a file. */
export function resultFiles(path: string): string[] {
  if (!existsSync(path))
    throw new FlowcheckError(
      "results_invalid",
      `${path}: no such file or folder; give a run-results.json or a folder holding one.`,
    );
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory()
        ? resultFiles(join(path, entry.name))
        : entry.name === RUN_RESULTS
          ? [join(path, entry.name)]
          : [],
    )
    .sort();
}

/** The results file `file`, or a `results_invalid` error naming it. */
export function readResults(file: string): RunResults {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new FlowcheckError(
      "results_invalid",
      `cannot read ${file} as JSON: ${(error as Error).message}; give the run-results.json that flowcheck test writes.`,
    );
  }
  return asRunResults(data, file);
}

/** The results of `files` as one: the file itself when there is one, their merge otherwise. */
export function readMergedResults(files: readonly string[]): RunResults {
  const runs = files.map((file) => ({ file, results: readResults(file) }));
  return runs.length === 1 ? runs[0]!.results : mergeRunResults(runs);
}

/**
 * The strength run's results beside the first of `files` that has them (`flowcheck strength`
 * writes them beside `flowcheck test`'s), or undefined; a file there that is not JSON is `results_invalid`.
 */
export function readStrengthBeside(files: readonly string[]): StrengthResults | undefined {
  const file = files.map((each) => join(dirname(each), STRENGTH_RESULTS)).find(existsSync);
  if (file === undefined) return undefined;
  try {
    return JSON.parse(readFileSync(file, "utf8")) as StrengthResults;
  } catch (error) {
    throw new FlowcheckError(
      "results_invalid",
      `cannot read ${file} as JSON: ${(error as Error).message}; run flowcheck strength again, or remove the file.`,
    );
  }
}
