import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { COVERAGE_RUN, coverageLines, mergeCoverage, type FlowCoverage } from "../testing/flow-coverage.ts";

// Node 20's test runner expands no globs and takes options only before the files, so this finds
// the spec files and puts node:test's options (e.g. --test-name-pattern) first.
//
// It also spends one process per core rather than one per spec file: starting Node, tsx and the
// code under test costs about half a second, far more than most spec files take to run, so each
// process imports a share of the files and runs their tests one file after another. A spec must
// therefore leave the process as it found it (environment, patches, servers): the suites do.
//
// `--repeat N` is ours: it plays every scenario N times (FLOW_REPEAT) to measure a live flow's steadiness.
// Usage: run-specs <folder|file>... [--repeat N] [node:test options]
const SKIPPED_FOLDERS = new Set(["node_modules", ".tmp", "bench", "fixtures"]);

function specsUnder(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .flatMap((entry) => {
      const child = join(path, entry.name);
      if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) ? [] : specsUnder(child);
      return entry.name.endsWith(".spec.ts") ? [child] : [];
    })
    .sort();
}

/** `n` shares of the files, each a file that imports its share, in a new folder; with the folder. */
function shareFiles(files: string[], n: number): { entries: string[]; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), "flowcheck-specs-"));
  const shares: string[][] = Array.from({ length: n }, () => []);
  files.forEach((file, index) => shares[index % n]!.push(file));
  const entries = shares.map((share, index) => {
    const entry = join(dir, `share-${index + 1}-of-${n}.mjs`);
    // One file that fails to load is one failing test naming it; the share's other files still run.
    const imports = share.map((file) => {
      const url = JSON.stringify(pathToFileURL(resolve(file)).href);
      return `try {\n  await import(${url});\n} catch (error) {\n  test(${JSON.stringify(`${file} loads`)}, () => {\n    throw error;\n  });\n}\n`;
    });
    writeFileSync(entry, `import { test } from "node:test";\n${imports.join("")}`);
    return entry;
  });
  return { entries, dir };
}

const args = process.argv.slice(2);
const repeatAt = args.findIndex((arg) => arg === "--repeat" || arg.startsWith("--repeat="));
if (repeatAt !== -1) {
  const [flag] = args.splice(repeatAt, 1);
  const value = flag!.includes("=") ? flag!.split("=")[1] : args.splice(repeatAt, 1)[0];
  if (!value || !/^[1-9][0-9]*$/.test(value)) {
    console.error(`run-specs: --repeat takes a whole number of runs, got ${value ?? "nothing"}.`);
    process.exit(2);
  }
  process.env["FLOW_REPEAT"] = value;
}
const firstOption = args.findIndex((arg) => arg.startsWith("-"));
const paths = firstOption === -1 ? args : args.slice(0, firstOption);
const options = firstOption === -1 ? [] : args.slice(firstOption);
const files = paths.flatMap(specsUnder);
if (files.length === 0) {
  console.error(`run-specs: no *.spec.ts under ${paths.join(", ") || "(no path given)"}; nothing to run.`);
  process.exit(1);
}
const asked = options.find((option) => option.startsWith("--test-concurrency="))?.split("=")[1];
const processes = Math.max(1, Math.min(files.length, asked ? Number(asked) || 1 : availableParallelism()));
const { entries, dir } = shareFiles(files, processes);
const concurrency = asked ? [] : [`--test-concurrency=${processes}`];
// The flow suites' processes each write what their scenarios reached; this run merges its own.
const run = randomUUID().slice(0, 8);
const child = spawn(process.execPath, ["--import", "tsx", "--test", ...concurrency, ...options, ...entries], {
  stdio: "inherit",
  env: { ...process.env, [COVERAGE_RUN]: run },
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => {
  rmSync(dir, { recursive: true, force: true });
  reportCoverage(run);
  process.exit(code ?? (signal ? 1 : 0));
});

/** Merges the coverage files of `run`'s processes into test/.tmp/flow-coverage.json and prints a line per flow. */
function reportCoverage(run: string): void {
  const folder = join("test", ".tmp", "coverage");
  const files = existsSync(folder) ? readdirSync(folder).filter((name) => name.startsWith(`${run}-`)) : [];
  if (files.length === 0) return;
  const merged: FlowCoverage = {};
  for (const file of files) {
    mergeCoverage(merged, JSON.parse(readFileSync(join(folder, file), "utf8")) as FlowCoverage);
    rmSync(join(folder, file), { force: true });
  }
  const out = join("test", ".tmp", "flow-coverage.json");
  writeFileSync(out, `${JSON.stringify(merged, null, 2)}\n`);
  console.log(`\nflow coverage, from the scenarios' stored sessions (${out}):`);
  for (const line of coverageLines(merged)) console.log(`  ${line}`);
}
